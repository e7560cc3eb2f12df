import { and, eq, inArray, or, sql } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import { runBatch, type Db } from "~/db/client.server";
import { contacts, leadConsents, leadIdempotency } from "~/db/schema";
import { logActivity } from "~/activity/log-activity.server";
import { AppError } from "~/lib/app-error";
import { isUniqueViolation } from "~/db/unique-violation";
import { isUniquePhoneViolation, toContactValues, type ContactFields } from "./contact-row.server";
import { parseLead, type LeadConsentInput } from "./lead-fields";
import { keepUnlessGiven, optOutFlagStatements } from "./upsert-contacts.server";

export type OnDuplicate = "update" | "skip";
export type LeadOutcome = {
  index: number;
  status: "created" | "updated" | "skipped" | "invalid";
  contactId?: number;
  message?: string;
  errors?: string[];
};
export type LeadsResult = { status: number; body: LeadsBody; replayed: boolean };
export type LeadsBody = {
  created: number;
  updated: number;
  skipped: number;
  invalid: number;
  leads: LeadOutcome[];
  message?: string;
};
/** A lead stored (created, or an existing contact updated): what the hook after the write gets. */
export type StoredLead = { contactId: number; phone: string; source: string; status: "created" | "updated" };

/**
 * How long an Idempotency-Key's claim (status 0: the batch is written, the answer not yet) holds off a retry with the
 * same key: a claim older than this was left by a Worker that died before recording the answer, and is re-claimed.
 * A post's batch and answer take well under a second; a minute leaves room for a slow D1.
 */
export const LEAD_CLAIM_LEASE_MS = 60_000;

export type IngestLeadsInput = {
  leads: unknown[];
  onDuplicate: OnDuplicate;
  /** The source when a lead names none (`?source=`, else the API key's name). */
  defaultSource: string;
  apiKeyId: number | null;
  userId: number;
  /** The caller's address (CF-Connecting-IP): the evidence's IP when the lead carries none. */
  requestIp: string | null;
  idempotency: { key: string; requestHash: string } | null;
  now: Date;
};

const summary = (leads: LeadOutcome[]): LeadsBody => ({
  created: leads.filter((l) => l.status === "created").length,
  updated: leads.filter((l) => l.status === "updated").length,
  skipped: leads.filter((l) => l.status === "skipped").length,
  invalid: leads.filter((l) => l.status === "invalid").length,
  leads,
});

/**
 * The lead webhook's one domain call (issue 26, decision 035). All or nothing: a post with any invalid lead is a
 * 422 that stores none of them (the report names each lead's problem), so a vendor's fix-and-resend never doubles
 * the good ones. Otherwise every lead is created, updated (same phone, `onDuplicate=update`) or skipped, with its
 * consent evidence, in ONE D1 batch (one transaction) together with the Idempotency-Key's claim; the key's answer is
 * recorded right after. The same key again (same API key) returns that first answer and writes nothing; with another
 * body it is a 422. An update never touches the opt-out: a STOP stays a STOP, and a new contact whose number is on
 * the suppression list is flagged opted out at once. `onStored` runs after the write for each created or updated
 * lead (the `lead.created` hook point, `onLeadCreated` in app/wiring).
 */
export async function ingestLeads(
  db: Db,
  input: IngestLeadsInput,
  onStored: (lead: StoredLead) => Promise<void>,
): Promise<LeadsResult> {
  if (input.idempotency && input.apiKeyId !== null) {
    const replay = await findReplay(db, input.apiKeyId, input.idempotency, input.now);
    if (replay) return replay;
  }
  const parsed = input.leads.map(parseLead);
  if (parsed.some((p) => !p.ok)) {
    const leads: LeadOutcome[] = parsed.map((p) =>
      p.ok
        ? { index: p.index, status: "skipped", message: "Not stored: another lead in this request is invalid" }
        : { index: p.index, status: "invalid", message: p.errors[0], errors: p.errors },
    );
    return {
      status: 422,
      replayed: false,
      body: { ...summary(leads), message: "Nothing was stored: fix the invalid leads and send the request again" },
    };
  }
  for (let attempt = 1; ; attempt++) {
    try {
      return await planAndWrite(db, input, parsed as Extract<(typeof parsed)[number], { ok: true }>[], onStored);
    } catch (err) {
      // A twin with the same Idempotency-Key won the claim: its answer (or "in progress").
      if (input.idempotency && input.apiKeyId !== null && isUniqueViolation(err, "lead_idempotency.api_key_id")) {
        const replay = await findReplay(db, input.apiKeyId, input.idempotency, input.now);
        if (replay) return replay;
      }
      // Another writer took one of the phones between the read and the batch: nothing was written; plan again.
      if (attempt >= 3 || !isUniquePhoneViolation(err)) throw err;
    }
  }
}

async function findReplay(
  db: Db,
  apiKeyId: number,
  idem: { key: string; requestHash: string },
  now: Date,
): Promise<LeadsResult | null> {
  const row = await db
    .select()
    .from(leadIdempotency)
    .where(and(eq(leadIdempotency.apiKeyId, apiKeyId), eq(leadIdempotency.idempotencyKey, idem.key)))
    .get();
  if (!row) return null;
  if (row.requestHash !== idem.requestHash)
    throw new AppError("conflict", "This Idempotency-Key was used with a different request body");
  if (row.status === 0) {
    if (row.createdAt.getTime() > now.getTime() - LEAD_CLAIM_LEASE_MS)
      throw new AppError("conflict", "A request with this Idempotency-Key is still in progress");
    // The claimer died between its batch and recording the answer: release the claim (only that one — a twin may
    // already hold a fresh one) and run again; its leads are stored, so they are reported as existing, not doubled.
    await db
      .delete(leadIdempotency)
      .where(
        and(
          eq(leadIdempotency.apiKeyId, apiKeyId),
          eq(leadIdempotency.idempotencyKey, idem.key),
          eq(leadIdempotency.status, 0),
          eq(leadIdempotency.createdAt, row.createdAt),
        ),
      );
    return null;
  }
  return { status: row.status, body: JSON.parse(row.response) as LeadsBody, replayed: true };
}

type Valid = {
  index: number;
  row: ContactFields & { phone: string; email: string | null };
  consent: LeadConsentInput;
  ownerEmail: string | null;
};

/** The active user a lead names as its owner, by email, inside the write (decision 044); null when none. */
const ownerByEmail = (email: string | null) =>
  // Names spelled out: the builder's table reference rendered invalid SQL inside an INSERT's VALUES.
  email === null ? null : sql<number | null>`(SELECT id FROM users WHERE email = ${email} AND is_active = 1)`;

async function planAndWrite(
  db: Db,
  input: IngestLeadsInput,
  parsed: Valid[],
  onStored: (lead: StoredLead) => Promise<void>,
): Promise<LeadsResult> {
  const phones = parsed.map((p) => p.row.phone);
  const emails = parsed.flatMap((p) => (p.row.email ? [p.row.email] : []));
  // Two index seeks (contacts_phone_uq, contacts_email_idx) for the whole post.
  const existing = await db
    .select({ id: contacts.id, phone: contacts.phone, email: contacts.email })
    .from(contacts)
    .where(
      emails.length
        ? or(inArray(contacts.phone, phones), inArray(contacts.email, emails))
        : inArray(contacts.phone, phones),
    )
    .all();
  const byPhone = new Map(existing.map((c) => [c.phone, c.id]));
  const byEmail = new Map(existing.flatMap((c) => (c.email ? [[c.email, c.id] as const] : [])));
  const now = input.now;
  const statements: BatchItem<"sqlite">[] = [];
  const outcomes: LeadOutcome[] = [];
  const seenPhones = new Set<string>();
  const inserted: { index: number; stmt: number }[] = [];
  const newRows: { phone: string; email: string | null }[] = [];
  if (input.idempotency && input.apiKeyId !== null)
    // The claim: a racing twin with the same key fails this insert (primary key) and writes nothing.
    statements.push(
      db.insert(leadIdempotency).values({
        apiKeyId: input.apiKeyId,
        idempotencyKey: input.idempotency.key,
        requestHash: input.idempotency.requestHash,
        status: 0,
        response: "",
        createdAt: now,
      }),
    );
  for (const p of parsed as Valid[]) {
    const values = toContactValues(p.row);
    const source = p.consent.source ?? input.defaultSource;
    const phoneId = byPhone.get(values.phone);
    const emailId = values.email ? byEmail.get(values.email) : undefined;
    if (seenPhones.has(values.phone)) {
      outcomes.push({ index: p.index, status: "skipped", message: "The same phone appears earlier in this request" });
      continue;
    }
    seenPhones.add(values.phone);
    const consentRow = (contactId: number | ReturnType<typeof sql>) => ({
      contactId: contactId as number,
      apiKeyId: input.apiKeyId,
      source,
      consentText: p.consent.consentText,
      sellerName: p.consent.sellerName,
      pageUrl: p.consent.pageUrl,
      ipAddress: p.consent.ipAddress ?? input.requestIp,
      consentedAt: p.consent.consentedAt ?? now,
      receivedFromIp: input.requestIp,
      purpose: p.consent.purpose,
      createdAt: now,
    });
    if (phoneId !== undefined) {
      if (input.onDuplicate === "skip") {
        outcomes.push({ index: p.index, status: "skipped", contactId: phoneId, message: "A contact has this phone" });
        continue;
      }
      // Lead fields win when present; opt-out columns are never written here (a lead never undoes a STOP).
      statements.push(
        db
          .update(contacts)
          .set({
            firstName: values.firstName,
            lastName: sql`CASE WHEN ${values.lastName} = '' THEN ${contacts.lastName} ELSE ${values.lastName} END`,
            ...keepUnlessGiven(values),
            ownerUserId:
              p.ownerEmail === null ? undefined : sql`coalesce(${ownerByEmail(p.ownerEmail)}, ${contacts.ownerUserId})`,
            customFields:
              values.customFields == null
                ? undefined
                : sql`json_patch(coalesce(${contacts.customFields}, '{}'), ${values.customFields})`,
            // Marketing consent widens an informational-only one; an informational lead never narrows (decision 072).
            consentPurpose: p.consent.purpose === "marketing" ? null : undefined,
            updatedAt: now,
          })
          .where(eq(contacts.id, phoneId)),
        db.insert(leadConsents).values(consentRow(phoneId)),
      );
      outcomes.push({ index: p.index, status: "updated", contactId: phoneId });
      continue;
    }
    if (emailId !== undefined) {
      // A shared email (a household) never hands this phone to another contact: reported, not merged.
      outcomes.push({
        index: p.index,
        status: "skipped",
        contactId: emailId,
        message: "A contact with another phone has this email",
      });
      continue;
    }
    inserted.push({ index: p.index, stmt: statements.length });
    newRows.push({ phone: values.phone, email: values.email });
    statements.push(
      db
        .insert(contacts)
        .values({
          ...values,
          customFields: values.customFields ?? null,
          consentSource: `lead:${source}`.slice(0, 200),
          consentAt: p.consent.consentedAt ?? now,
          consentPurpose: p.consent.purpose === "informational" ? "informational" : null,
          ownerUserId: ownerByEmail(p.ownerEmail),
          createdBy: input.userId,
          createdAt: now,
          updatedAt: now,
        })
        .returning({ id: contacts.id }),
      // The new contact's id, found by its phone inside the same transaction.
      db.insert(leadConsents).values(consentRow(sql`(SELECT id FROM contacts WHERE phone = ${values.phone})`)),
    );
    outcomes.push({ index: p.index, status: "created" });
  }
  // A number or address that opted out before it became a contact shows as opted out at once.
  statements.push(...optOutFlagStatements(db, newRows));
  const stored = outcomes.filter((o) => o.status !== "skipped").length;
  if (stored > 0)
    statements.push(
      logActivity(db, "receive_leads", {
        userId: input.userId,
        ipAddress: input.requestIp,
        details: { apiKeyId: input.apiKeyId, leads: parsed.length, stored },
        now,
      }),
    );
  const results = await runBatch(db, statements);
  for (const { index, stmt } of inserted) {
    const out = outcomes.find((o) => o.index === index)!;
    out.contactId = (results[stmt] as { id: number }[])[0].id;
  }
  outcomes.sort((a, b) => a.index - b.index);
  const body = summary(outcomes);
  const status = body.created === outcomes.length ? 201 : 200;
  if (input.idempotency && input.apiKeyId !== null)
    await db
      .update(leadIdempotency)
      .set({ status, response: JSON.stringify(body) })
      .where(
        and(eq(leadIdempotency.apiKeyId, input.apiKeyId), eq(leadIdempotency.idempotencyKey, input.idempotency.key)),
      );
  for (const o of outcomes) {
    if (o.status !== "created" && o.status !== "updated") continue;
    const lead = (parsed as Valid[]).find((p) => p.index === o.index)!;
    await onStored({
      contactId: o.contactId!,
      phone: lead.row.phone,
      source: lead.consent.source ?? input.defaultSource,
      status: o.status,
    });
  }
  return { status, body, replayed: false };
}
