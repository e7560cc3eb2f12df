import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/cloudflare";
import { recordActivity } from "~/activity/log-activity.server";
import { getContact } from "~/contacts/get-contact.server";
import { viewerOf } from "~/contacts/contact-scope.server";
import { publicContact } from "~/contacts/public-contact.server";
import { updateContactFields } from "~/contacts/update-contact-fields.server";
import { getContactOp, updateContactOp } from "~/http/api-v1/operations";
import { served, v1Route } from "~/http/api-v1/v1-route.server";

/** GET and PATCH /api/v1/contacts/{id} (declared in app/http/api-v1/operations.ts). */
const OPS = [
  served(getContactOp, async ({ params }, { args, user }) =>
    publicContact(await getContact(args.context.db, params.id, viewerOf(user))),
  ),
  served(updateContactOp, async ({ params, body }, { args, user }) => {
    const updated = await updateContactFields(args.context.db, params.id, body, viewerOf(user), args.context.clock());
    await recordActivity(args, user.id, "update_contact", { contactId: params.id, fields: Object.keys(body) });
    return publicContact(updated);
  }),
];

// v1Route guards first (requireApiUser with the operation's scope).
export function loader(args: LoaderFunctionArgs) {
  return v1Route(args as ActionFunctionArgs, OPS);
}
export function action(args: ActionFunctionArgs) {
  return v1Route(args, OPS);
}
