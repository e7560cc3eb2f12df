import { redirect, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/cloudflare";
import { z } from "zod";
import { CONTACT_NOT_FOUND } from "~/contacts/get-contact.server";
import { setContactOwner } from "~/contacts/set-contact-owner.server";
import { formAction } from "~/http/form-action.server";
import { requireUser } from "~/http/guard.server";
import { routeId } from "~/http/http.server";
import { ownerField } from "~/http/owner-form";
import { redirectWithToast } from "~/http/toast.server";
import { clientIp } from "~/lib/request.server";

// POST /contacts/:id/owner — set, reassign or clear one contact's owner, with an optional note (decision 044). The
// contact page (its conversation) and the edit dialog post here; the answer goes back to the page that asked.
const schema = z.object({
  ownerUserId: ownerField,
  note: z.string().trim().max(500, "Keep the note under 500 characters").optional(),
  // Only a path on this site ("/contacts/12"), never another origin.
  back: z
    .string()
    .max(300)
    .regex(/^\/(?![/\\])/)
    .optional()
    .catch(undefined),
});

/** Nothing to show here: the owner is set from the contact's page. */
export async function loader(args: LoaderFunctionArgs) {
  await requireUser(args);
  return redirect(`/contacts/${routeId(args.params.id, CONTACT_NOT_FOUND)}`);
}

export async function action(args: ActionFunctionArgs) {
  const id = () => routeId(args.params.id, CONTACT_NOT_FOUND);
  const backTo = (raw: unknown) => {
    const parsed = schema.shape.back.parse(raw);
    return parsed ?? `/contacts/${id()}`;
  };
  const spec = {
    schema,
    title: "Owner not changed",
    before: id,
    // A form no page could send (an id that is not one) is answered as JSON: no screen renders this route.
    resource: true,
    // No screen renders this route's reply: a refusal is a destructive toast on the page that asked (works without JS).
    failureRedirect: (f: { message: string; values: Record<string, unknown> }) =>
      redirectWithToast(args.context, backTo(f.values.back), {
        title: "Owner not changed",
        description: f.message,
        variant: "destructive" as const,
      }),
  };
  return formAction(args, spec, async (input, { user }) => {
    const { changed } = await setContactOwner(
      args.context.db,
      { contactIds: [id()], ownerUserId: input.ownerUserId, note: input.note },
      { userId: user.id, ipAddress: clientIp(args.request), role: user.role },
      args.context.clock(),
    );
    return redirectWithToast(args.context, backTo(input.back), {
      title: changed ? (input.ownerUserId === null ? "Owner cleared" : "Owner set") : "Owner not changed",
      description: changed ? undefined : "You can change the owner only of your own or unowned contacts.",
    });
  });
}
