import { optOutFlagStatements } from "./upsert-contacts.server";
import { and, eq, ne, sql } from "drizzle-orm";
import { activityRow } from "~/activity/log-activity.server";
import { runBatch, type Db } from "~/db/client.server";
import { activityLog, contacts, messages, type Contact } from "~/db/schema";
import { AppError } from "~/lib/app-error";
import { parseContact } from "./contact-schema";
import { isUniquePhoneViolation, toContactValues, type ContactFields } from "./contact-row.server";
import { pickContactFields } from "./contact-fields";

export const CONTACT_NOT_FOUND = "Contact not found";

/** What the API and screens show of a contact. */
export function publicContact(c: Contact) {
  return {
    id: c.id,
    ...pickContactFields(c),
    timeZone: c.timeZone,
    sendable: c.sendable,
    unsendableReason: c.unsendableReason,
    optedOut: c.optedOutAt !== null,
    optedOutAt: c.optedOutAt?.toISOString() ?? null,
    optedOutSource: c.optedOutSource,
    consentSource: c.consentSource,
    consentAt: c.consentAt?.toISOString() ?? null,
    emailUnsubscribed: c.emailUnsubscribedAt !== null,
    createdAt: c.createdAt.toISOString(),
    updatedAt: c.updatedAt.toISOString(),
  };
}
export type PublicContact = ReturnType<typeof publicContact>;

async function assertPhoneFree(db: Db, phone: string, exceptId?: number) {
  const clash = await db
    .select({ id: contacts.id, firstName: contacts.firstName, lastName: contacts.lastName })
    .from(contacts)
    .where(exceptId ? and(eq(contacts.phone, phone), ne(contacts.id, exceptId)) : eq(contacts.phone, phone))
    .get();
  if (clash) {
    throw new AppError(
      "conflict",
      `A contact with this phone number already exists (${clash.firstName} ${clash.lastName})`,
    );
  }
}

export async function getContact(db: Db, id: number): Promise<Contact> {
  const c = await db.select().from(contacts).where(eq(contacts.id, id)).get();
  if (!c) throw new AppError("not_found", CONTACT_NOT_FOUND);
  return c;
}

/** Creates a contact and its `create_contact` activity entry together. */
export async function createContact(
  db: Db,
  input: ContactFields,
  actor: { userId: number; ipAddress: string | null },
  now: Date,
): Promise<Contact> {
  const values = toContactValues(input);
  await assertPhoneFree(db, values.phone);
  try {
    const [[created]] = (await runBatch(db, [
      db
        .insert(contacts)
        .values({
          ...values,
          consentSource: "manual",
          consentAt: now,
          createdBy: actor.userId,
          createdAt: now,
          updatedAt: now,
        })
        .returning(),
      db.insert(activityLog).values(
        activityRow("create_contact", {
          userId: actor.userId,
          ipAddress: actor.ipAddress,
          now,
          details: { phone: values.phone, name: `${values.firstName} ${values.lastName}` },
        }),
      ),
      ...optOutFlagStatements(db, [values]),
    ])) as [Contact[], unknown];
    return optedOutNow(db, created);
  } catch (err) {
    if (isUniquePhoneViolation(err)) throw new AppError("conflict", "A contact with this phone number already exists");
    throw err;
  }
}

export async function updateContact(db: Db, id: number, input: ContactFields, now: Date): Promise<Contact> {
  await getContact(db, id);
  const values = toContactValues(input);
  await assertPhoneFree(db, values.phone, id);
  try {
    const [updated] = await db
      .update(contacts)
      .set({ ...values, updatedAt: now })
      .where(eq(contacts.id, id))
      .returning();
    if (!updated) throw new AppError("not_found", CONTACT_NOT_FOUND);
    await runBatch(db, optOutFlagStatements(db, [values]));
    return optedOutNow(db, updated);
  } catch (err) {
    if (isUniquePhoneViolation(err)) throw new AppError("conflict", "A contact with this phone number already exists");
    throw err;
  }
}

/**
 * The API's PUT: fields left out of `body` keep their values (the spec's client sends the whole contact; a
 * partial body is accepted too); a field sent empty is validated as empty.
 */
export async function updateContactFields(db: Db, id: number, body: object, now: Date): Promise<Contact> {
  const { firstName, lastName, phone, email, company, address, city, state, zipCode } = await getContact(db, id);
  return updateContact(
    db,
    id,
    parseContact({ firstName, lastName, phone, email, company, address, city, state, zipCode, ...body }),
    now,
  );
}

/** The row again when the opt-out flags may have just been set from the suppression list. */
async function optedOutNow(db: Db, c: Contact): Promise<Contact> {
  return (await db.select().from(contacts).where(eq(contacts.id, c.id)).get()) ?? c;
}

/** Deletes the contact; messages to it that have not gone yet are skipped, not sent to a deleted contact. */
export async function deleteContact(db: Db, id: number): Promise<void> {
  const t = Date.now();
  const [, deleted] = (await runBatch(db, [
    db
      .update(messages)
      .set({ status: "skipped", errorMessage: "Contact deleted", updatedAt: new Date(t) })
      // The contact thread index drives; unary + keeps the backlog index out of it.
      .where(
        and(
          eq(messages.contactId, id),
          sql`+${messages.status} IN ('pending', 'queued')`,
          sql`${messages.direction} = 'outbound'`,
        ),
      ),
    db.delete(contacts).where(eq(contacts.id, id)).returning({ id: contacts.id }),
  ])) as [unknown, { id: number }[]];
  if (deleted.length === 0) throw new AppError("not_found", CONTACT_NOT_FOUND);
}
