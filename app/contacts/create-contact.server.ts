import { logActivity } from "~/activity/log-activity.server";
import { runBatch, type Db } from "~/db/client.server";
import { contacts, type Contact } from "~/db/schema";
import { AppError } from "~/lib/app-error";
import { assertPhoneFree, reloadContact } from "./contact-checks.server";
import { isUniquePhoneViolation, toContactValues, type ContactFields } from "./contact-row.server";
import { optOutFlagStatements } from "./upsert-contacts.server";

/** Creates a contact and its `create_contact` activity entry together; `ownerUserId` from `ownerOfNewContact`. */
export async function createContact(
  db: Db,
  input: ContactFields,
  actor: { userId: number; ipAddress: string | null },
  now: Date,
  ownerUserId: number | null = null,
): Promise<Contact> {
  const values = toContactValues(input);
  await assertPhoneFree(db, values.phone);
  try {
    const [[created]] = (await runBatch(db, [
      db
        .insert(contacts)
        .values({
          ...values,
          ownerUserId,
          consentSource: "manual",
          consentAt: now,
          createdBy: actor.userId,
          createdAt: now,
          updatedAt: now,
        })
        .returning(),
      logActivity(db, "create_contact", {
        ...actor,
        now,
        details: { phone: values.phone, name: `${values.firstName} ${values.lastName}` },
      }),
      ...optOutFlagStatements(db, [values]),
    ])) as [Contact[], unknown];
    return reloadContact(db, created);
  } catch (err) {
    if (isUniquePhoneViolation(err)) throw new AppError("conflict", "A contact with this phone number already exists");
    throw err;
  }
}
