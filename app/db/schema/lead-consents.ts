import { sqliteTable, integer, text, index } from "drizzle-orm/sqlite-core";
import { autoId, createdAt, parentId, utc } from "./_columns";
import { apiKeys } from "./api-keys";
import { CONSENT_PURPOSES, contacts } from "./contacts";

/**
 * A lead's consent evidence as the vendor's form showed it (issue 26, decision 035): one row per lead received. The
 * first row of a contact is its lead source. `ipAddress` is the homeowner's (the lead's `ip`, else the caller's
 * CF-Connecting-IP); `receivedFromIp` is the caller's.
 */
export const leadConsents = sqliteTable(
  "lead_consents",
  {
    id: autoId(),
    contactId: parentId("contact_id", () => contacts.id),
    apiKeyId: integer("api_key_id").references(() => apiKeys.id, { onDelete: "set null" }),
    source: text("source").notNull(),
    consentText: text("consent_text"),
    sellerName: text("seller_name"),
    pageUrl: text("page_url"),
    ipAddress: text("ip_address"),
    consentedAt: utc("consented_at").notNull(),
    // What the form's consent covered (migration 0077, decision 072).
    purpose: text("purpose", { enum: CONSENT_PURPOSES }).notNull().default("marketing"),
    receivedFromIp: text("received_from_ip"),
    createdAt: createdAt(),
  },
  (t) => [
    index("lead_consents_contact_id_idx").on(t.contactId, t.createdAt),
    index("lead_consents_api_key_id_idx").on(t.apiKeyId),
  ],
);

export type LeadConsent = typeof leadConsents.$inferSelect;
