import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/cloudflare";
import { listContacts } from "~/contacts/list-contacts.server";
import { ownerOfNewContact, viewerOf } from "~/contacts/contact-scope.server";
import { createContact } from "~/contacts/create-contact.server";
import { publicContact } from "~/contacts/public-contact.server";
import { createContactOp, listContactsOp } from "~/http/api-v1/operations";
import { served, v1Route } from "~/http/api-v1/v1-route.server";
import { clientIp } from "~/lib/request.server";

/** GET /api/v1/contacts, POST /api/v1/contacts (declared in app/http/api-v1/operations.ts). */
const OPS = [
  served(listContactsOp, async ({ query }, { args, user }) => {
    const page = await listContacts(args.context.db, { ...query, viewer: viewerOf(user) });
    return { data: page.contacts.map(publicContact), nextCursor: page.nextCursor };
  }),
  served(createContactOp, async ({ body }, { args, user }) =>
    publicContact(
      await createContact(
        args.context.db,
        body,
        { userId: user.id, ipAddress: clientIp(args.request) },
        args.context.clock(),
        ownerOfNewContact(viewerOf(user)),
      ),
    ),
  ),
];

// v1Route guards first (requireApiUser with the operation's scope).
export function loader(args: LoaderFunctionArgs) {
  return v1Route(args as ActionFunctionArgs, OPS);
}
export function action(args: ActionFunctionArgs) {
  return v1Route(args, OPS);
}
