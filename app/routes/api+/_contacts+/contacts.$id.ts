import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/cloudflare";
import { recordActivity } from "~/activity/log-activity.server";
import { requireApiUser } from "~/http/guard.server";
import { deleteContact } from "~/contacts/delete-contact.server";
import { CONTACT_NOT_FOUND, getContact } from "~/contacts/get-contact.server";
import { publicContact } from "~/contacts/public-contact.server";
import { updateContactFields } from "~/contacts/update-contact-fields.server";
import { AppError } from "~/lib/app-error";
import type { SignedIn } from "~/auth/session.server";
import { viewerOf } from "~/contacts/contact-scope.server";
import { recordRoute, type RecordEndpoint } from "~/http/record-route.server";

/** PUT takes the fields to change (those left out keep their values); another rep's contact is a 404 (decision 048). */
const contactRecord = (
  args: LoaderFunctionArgs,
  user: SignedIn,
): RecordEndpoint<Awaited<ReturnType<typeof getContact>>> => ({
  notFound: CONTACT_NOT_FOUND,
  get: (db, id) => getContact(db, id, viewerOf(user)),
  update: async (db, id, body, now, actor) => {
    if (!body || typeof body !== "object" || Array.isArray(body))
      throw new AppError("validation", "Request body must be a contact object");
    const updated = await updateContactFields(db, id, body, viewerOf(user), now);
    await recordActivity(args, actor.userId, "update_contact", {
      contactId: id,
      fields: Object.keys(body).slice(0, 10),
    });
    return updated;
  },
  remove: async (db, id, actor) => {
    await deleteContact(db, id, viewerOf(user));
    await recordActivity(args, actor.userId, "delete_contact", { contactId: id });
  },
  present: publicContact,
});

/** GET /api/contacts/:id → 200 with the contact; PUT → 200; DELETE → 204. */
export const loader = async (args: LoaderFunctionArgs) => {
  const user = await requireApiUser(args);
  return recordRoute(args, contactRecord(args, user), user);
};
export const action = async (args: ActionFunctionArgs) => {
  const user = await requireApiUser(args);
  return recordRoute(args, contactRecord(args, user), user);
};
