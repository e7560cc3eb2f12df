import { and, asc, eq, gt, inArray, sql } from "drizzle-orm";
import { alias } from "drizzle-orm/sqlite-core";
import { csvCell } from "~/contacts/export";
import type { Db } from "~/db/client.server";
import { complianceEvents, contacts, messages } from "~/db/schema";
import { epochMs } from "~/db/stored-values.server";
import { EVIDENCE_MESSAGE_ID } from "~/messaging/keep-consent-evidence.server";

const PAGE = 1000;
const COLUMNS = [
  "event_id",
  "at_utc",
  "event",
  "channel",
  "source",
  "contact_id",
  "first_name",
  "last_name",
  "phone",
  "email",
  "consent_source",
  "consent_at_utc",
  "their_message",
  "their_message_at_utc",
  "our_number",
];

// EVIDENCE_MESSAGE_ID names the event `e`.
const e = alias(complianceEvents, "e");
const c = alias(contacts, "c");
const m = alias(messages, "m");

/** One page of opt-out/opt-in events after `after`, with the contact and the evidence message. */
const evidencePage = (db: Db, after: number, contactId: number | null | undefined) =>
  db
    .select({
      id: e.id,
      at: e.at,
      kind: e.kind,
      channel: e.channel,
      source: e.source,
      contact_id: e.contactId,
      first_name: c.firstName,
      last_name: c.lastName,
      address: e.address,
      phone: c.phone,
      email: c.email,
      consent_source: c.consentSource,
      consent_at: epochMs(c.consentAt),
      inbound: sql<string | null>`coalesce(${e.inboundContent}, ${m.content})`,
      inbound_at: sql<number | null>`coalesce(${e.inboundAt}, ${epochMs(m.createdAt)})`,
      our_number: sql<string | null>`coalesce(${e.inboundTo}, ${m.fromAddress})`,
    })
    .from(e)
    .leftJoin(c, eq(c.id, e.contactId))
    .leftJoin(m, sql`${e.inboundAt} IS NULL AND ${m.id} = ${sql.raw(EVIDENCE_MESSAGE_ID)}`)
    .where(
      and(inArray(e.kind, ["opt_out", "opt_in"]), gt(e.id, after), contactId ? eq(e.contactId, contactId) : undefined),
    )
    .orderBy(asc(e.id))
    .limit(PAGE);

const iso = (ms: number | null) => (ms == null ? "" : new Date(ms).toISOString());

/**
 * The consent evidence as CSV (issue 14): every opt-out and opt-in — for one contact or for all — with who, when,
 * the source, the contact's recorded consent, and the text they sent that did it (the latest inbound message at that
 * moment, or the copy kept on the event when that message was archived) with the number it reached. Streamed in pages
 * of 1,000 by event id, cells made spreadsheet-safe.
 */
export function exportConsentEvidence(db: Db, opts: { contactId?: number | null }): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  let after = 0;
  let header = true;
  return new ReadableStream({
    async pull(controller) {
      if (header) {
        header = false;
        controller.enqueue(encoder.encode(COLUMNS.map(csvCell).join(",") + "\r\n"));
        return;
      }
      const rows = await evidencePage(db, after, opts.contactId);
      if (rows.length === 0) {
        controller.close();
        return;
      }
      after = rows.at(-1)!.id;
      const lines = rows.map((r) =>
        [
          String(r.id),
          iso(r.at),
          r.kind === "opt_out" ? "opt-out" : "opt-in",
          r.channel,
          r.source,
          r.contact_id == null ? "" : String(r.contact_id),
          r.first_name,
          r.last_name,
          r.phone ?? (r.channel === "sms" ? r.address : ""),
          r.email ?? (r.channel === "email" ? r.address : ""),
          r.consent_source,
          iso(r.consent_at),
          r.inbound,
          iso(r.inbound_at),
          r.our_number,
        ]
          .map(csvCell)
          .join(","),
      );
      controller.enqueue(encoder.encode(lines.join("\r\n") + "\r\n"));
    },
  });
}
