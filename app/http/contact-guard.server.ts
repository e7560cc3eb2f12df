import { redirect, type ActionFunctionArgs, type AppLoadContext, type LoaderFunctionArgs } from "@remix-run/cloudflare";
import type { z } from "zod";
import type { SignedIn } from "~/auth/session.server";
import { viewerOf, type ContactViewer } from "~/contacts/contact-scope.server";
import { CONTACT_NOT_FOUND, getContact } from "~/contacts/get-contact.server";
import { contactOfPhone } from "~/conversations/get-conversation.server";
import { formAction } from "./form-action.server";
import { backField } from "./form-schema";
import { requireUser } from "./guard.server";
import { refuseBackWithToast } from "./toast.server";
import { routeId, throwAsResponse } from "./http.server";

type Args = { context: AppLoadContext; params: { id?: string; phone?: string } };

/**
 * formAction's `before` for a screen action on one contact (`:id`): a contact outside the user's scope is the same
 * 404 as a missing one, answered before the form is read — so a refused post says nothing a valid one would not
 * (decision 048). The domain call the action makes checks the scope again in its own statement.
 */
export const contactInScope = (args: Args) => async (user: SignedIn) => {
  await getContact(args.context.db, routeId(args.params.id, CONTACT_NOT_FOUND), viewerOf(user)).catch(throwAsResponse);
};

/** The same for a conversation addressed by number: a number that is another rep's contact is a 404. */
export const phoneInScope = (args: Args, phone: () => string) => async (user: SignedIn) => {
  await contactOfPhone(args.context.db, phone(), viewerOf(user)).catch(throwAsResponse);
};

/**
 * A POST-only sub-route of one contact (`/contacts/:id/owner`, `/contacts/:id/stage`): its id, where its answer goes
 * — the page that asked (`back`, a path on this site), else the contact's page — and formAction's refusal settings:
 * another rep's contact is a 404 before the form is read (decision 048); no screen renders this route's reply, so a
 * refusal is a toast on the page that asked.
 */
export function contactSubroute(args: Args) {
  const id = () => routeId(args.params.id, CONTACT_NOT_FOUND);
  const backTo = (raw?: unknown) => backField.parse(raw) ?? `/contacts/${id()}`;
  return {
    id,
    backTo,
    refusal: (title: string) => ({
      title,
      before: contactInScope(args),
      ...refuseBackWithToast(args.context, title, backTo),
    }),
  };
}

/** A POST-only sub-route has nothing to show: a GET (signed in) goes to the contact's page. */
export async function contactSubrouteLoader(args: LoaderFunctionArgs) {
  await requireUser(args);
  return redirect(contactSubroute(args).backTo());
}

/** What a sub-route's `run` gets: the contact's id, the signer-in, who asks (viewer + address) and where to answer. */
export type ContactSubrouteContext = {
  id: number;
  user: SignedIn;
  actor: ContactViewer & { ipAddress: string | null };
  backTo: (raw?: unknown) => string;
};

/**
 * A sub-route's action: formAction with the sub-route's refusal (another rep's contact is a 404 before the form is
 * read; a refused form is a toast titled `refused` on the page that asked — a refused input too with `typedFields`),
 * then `run` — one domain call and its redirect.
 */
export function contactSubrouteAction<S extends z.ZodTypeAny>(
  args: ActionFunctionArgs,
  spec: { schema: S; refused: string; typedFields?: boolean },
  run: (input: z.output<S>, ctx: ContactSubrouteContext) => Promise<Response>,
) {
  const { id, backTo, refusal } = contactSubroute(args);
  const { schema, typedFields } = spec;
  return formAction(args, { schema, typedFields, ...refusal(spec.refused) }, (input, { user, actor }) =>
    run(input, { id: id(), user, actor: { ...viewerOf(user), ipAddress: actor.ipAddress }, backTo }),
  );
}
