import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/cloudflare";
import { recordActivity } from "~/activity/log-activity.server";
import { requireApiUser } from "~/auth/guard.server";
import { CONTACT_NOT_FOUND, deleteContact, getContact, publicContact, updateContactFields } from "~/contacts/manage-contacts.server";
import { AppError } from "~/lib/app-error";
import { changeRecord, getRecord, type RecordEndpoint } from "~/lib/record-route.server";

/** PUT takes the fields to change (those left out keep their values). */
const contactRecord = (userId: number): RecordEndpoint => ({
  notFound: CONTACT_NOT_FOUND,
  get: async ({ context }, id) => publicContact(await getContact(context.db, id)),
  update: async (args, id, body) => {
    if (!body || typeof body !== "object" || Array.isArray(body)) throw new AppError("validation", "Request body must be a contact object");
    const updated = await updateContactFields(args.context.db, id, body, args.context.clock());
    await recordActivity(args, userId, "update_contact", { contactId: id, fields: Object.keys(body).slice(0, 10) });
    return publicContact(updated);
  },
  remove: async (args, id) => {
    await deleteContact(args.context.db, id);
    await recordActivity(args, userId, "delete_contact", { contactId: id });
  },
});

/** GET /api/contacts/:id. */
export async function loader(args: LoaderFunctionArgs) {
  const user = await requireApiUser(args);
  return getRecord(args, contactRecord(user.id));
}

/** PUT /api/contacts/:id → 200 with the contact; DELETE → 204. */
export async function action(args: ActionFunctionArgs) {
  const user = await requireApiUser(args);
  return changeRecord(args, contactRecord(user.id));
}
