import { sql } from "drizzle-orm";
import { sqliteTable, integer, text, index, uniqueIndex } from "drizzle-orm/sqlite-core";
import { autoId, bool, createdAt, updatedAt, utc } from "./_columns";
import { users } from "./users";

/** What a consent covers (decision 072): marketing covers every text; informational, appointment texts only. */
export const CONSENT_PURPOSES = ["marketing", "informational"] as const;
export type ConsentPurpose = (typeof CONSENT_PURPOSES)[number];

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
    // What the opt-out revoked (migration 0076, decision 072): "marketing" leaves appointment texts; "all" or null
    // (every opt-out before it) leaves nothing but the confirmation.
    optedOutScope: text("opted_out_scope", { enum: ["all", "marketing"] }),
    emailUnsubscribedAt: utc("email_unsubscribed_at"),
    consentSource: text("consent_source"),
    consentAt: utc("consent_at"),
    // The import whose consent record (seller, wording) covers this contact (migration 0075, decision 071). No
    // foreign key: completed imports are never deleted, and a constraint would scan contacts on each staged delete.
    consentImportId: integer("consent_import_id"),
    // "informational" when the contact agreed to appointment texts only (migration 0077, decision 072): no campaign,
    // broadcast, Quick Send or follow-up texts it; null is marketing consent (every contact before it).
    consentPurpose: text("consent_purpose", { enum: CONSENT_PURPOSES }),
    createdBy: integer("created_by").references(() => users.id, { onDelete: "set null" }),
    // The rep this lead belongs to (migration 0056, decision 044): {{salesRep…}} come from them; null = unassigned.
    ownerUserId: integer("owner_user_id").references(() => users.id, { onDelete: "set null" }),
    // The sticky sender (migration 0057, decision 045): the number it was first texted from; later SMS go from it.
    smsSender: text("sms_sender"),
    // Where the sale stands (migration 0063, decision 053): a pipeline_stages key; a New lead turns Contacted (trigger)
    // when its first message goes out.
    stage: text("stage").notNull().default("new"),
    stageChangedAt: utc("stage_changed_at"),
    /** When the contact first texted a picture (decision 057): a bill, usually. */
    billReceivedAt: utc("bill_received_at"),
    /** The home's electric bill and use a month, and its utility (decision 074): the savings estimate starts here. */
    monthlyBillCents: integer("monthly_bill_cents"),
    monthlyKwh: integer("monthly_kwh"),
    utilityName: text("utility_name"),
    /** What the carrier lookup said the number is (decision 069; LineType), and when; null = not looked up. */
    lineType: text("line_type"),
    lineTypeCheckedAt: utc("line_type_checked_at"),
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
    // A stage's contacts newest first (the stage filter, the board); the same within a standard user's scope.
    index("contacts_stage_idx").on(t.stage, t.id),
    index("contacts_owner_stage_idx").on(t.ownerUserId, t.stage, t.id),
    // The numbers still to look up (decision 069), newest first.
    index("contacts_line_type_due_idx")
      .on(t.id)
      .where(sql`line_type_checked_at IS NULL AND sendable = 1`),
  ],
);

export type Contact = typeof contacts.$inferSelect;
export type NewContact = typeof contacts.$inferInsert;
