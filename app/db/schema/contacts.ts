import { sqliteTable, integer, text, index, uniqueIndex } from "drizzle-orm/sqlite-core";
import { autoId, bool, createdAt, updatedAt, utc } from "./_columns";
import { users } from "./users";

export const contacts = sqliteTable(
  "contacts",
  {
    id: autoId(),
    firstName: text("first_name").notNull(),
    lastName: text("last_name").notNull(),
    // Normalised per SPEC §5 (+1XXXXXXXXXX for US numbers); unique so a number is one contact.
    phone: text("phone").notNull(),
    email: text("email"), // lower-cased
    company: text("company"),
    address: text("address"),
    city: text("city"),
    state: text("state"), // two-letter code when recognisable
    zipCode: text("zip_code"),
    // IANA zone derived from state / ZIP / area code; null = unknown (strictest quiet-hours window).
    timeZone: text("time_zone"),
    // JSON object of the Solar and Appointment platform variables ({"roofSize": "1,800 sq ft", ...}); null = none.
    customFields: text("custom_fields"),
    // A number that cannot be a US mobile/landline is kept but never sent to.
    sendable: bool("sendable").notNull().default(true),
    unsendableReason: text("unsendable_reason"),
    optedOutAt: utc("opted_out_at"),
    optedOutSource: text("opted_out_source"),
    emailUnsubscribedAt: utc("email_unsubscribed_at"),
    consentSource: text("consent_source"),
    consentAt: utc("consent_at"),
    createdBy: integer("created_by").references(() => users.id, { onDelete: "set null" }),
    // The rep this lead belongs to (migration 0056, decision 044): {{salesRep…}} come from them; null = unassigned.
    ownerUserId: integer("owner_user_id").references(() => users.id, { onDelete: "set null" }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex("contacts_phone_uq").on(t.phone),
    index("contacts_email_idx").on(t.email),
    index("contacts_last_name_idx").on(t.lastName, t.firstName),
    index("contacts_company_idx").on(t.company),
    index("contacts_created_at_idx").on(t.createdAt),
    // The owner filter and "my contacts", newest first (keyset on id); the deactivation hand-off.
    index("contacts_owner_idx").on(t.ownerUserId, t.id),
  ],
);

export type Contact = typeof contacts.$inferSelect;
export type NewContact = typeof contacts.$inferInsert;
