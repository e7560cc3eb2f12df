import type { AppLoadContext } from "@remix-run/cloudflare";
import type { SignedIn } from "~/auth/session.server";
import { viewerOf } from "~/contacts/contact-scope.server";
import { CONTACT_NOT_FOUND, getContact } from "~/contacts/get-contact.server";
import { contactOfPhone } from "~/conversations/get-conversation.server";
import { backField } from "./form-schema";
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
