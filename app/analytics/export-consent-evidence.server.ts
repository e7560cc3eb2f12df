import { sql } from "drizzle-orm";
import { csvCell } from "~/contacts/export";
import type { Db } from "~/db/client.server";
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

type Row = {
  id: number;
  at: number;
  kind: string;
  channel: string;
  source: string | null;
  contact_id: number | null;
  first_name: string | null;
  last_name: string | null;
  address: string | null;
  phone: string | null;
  email: string | null;
  consent_source: string | null;
  consent_at: number | null;
  inbound: string | null;
  inbound_at: number | null;
  our_number: string | null;
};

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
      const rows = await db.all<Row>(sql`
        SELECT e.id, e.at, e.kind, e.channel, e.source, e.contact_id, c.first_name, c.last_name, e.address, c.phone, c.email, c.consent_source, c.consent_at,
          coalesce(e.inbound_content, m.content) AS inbound, coalesce(e.inbound_at, m.created_at) AS inbound_at, coalesce(e.inbound_to, m.from_address) AS our_number
        FROM compliance_events e
        LEFT JOIN contacts c ON c.id = e.contact_id
        LEFT JOIN messages m ON e.inbound_at IS NULL AND m.id = ${sql.raw(EVIDENCE_MESSAGE_ID)}
        WHERE e.kind IN ('opt_out', 'opt_in') AND e.id > ${after} ${opts.contactId ? sql`AND e.contact_id = ${opts.contactId}` : sql``}
        ORDER BY e.id LIMIT ${PAGE}`);
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
