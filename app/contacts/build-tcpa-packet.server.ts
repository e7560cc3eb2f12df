import { CONSENT_PURPOSE_LABEL, consentPurposeOf } from "./consent-purpose";
import { asc, eq } from "drizzle-orm";
import { runBatch, type Db } from "~/db/client.server";
import {
  complianceEvents,
  leadConsents,
  messages,
  type ComplianceEvent,
  type LeadConsent,
  type Message,
} from "~/db/schema";
import { csvCell } from "./export";
import { normalizeState, stateForZip } from "./us-geo";
import { getContact } from "./get-contact.server";
import { selectImportConsent } from "./list-lead-consents.server";
import type { ContactViewer } from "./contact-scope.server";

// The TCPA defense packet of one contact (issue 29 item 4): everything Helio knows about how this person came to be
// texted and what they were sent — the consent record and its evidence, every message with the contact's local time,
// every hold and refusal with its reason, the opt-out history — as one document a lawyer can read (the packet screen,
// printable to PDF) and one CSV. Only this contact's rows: each read is keyed by the contact's id.

/** A contact's thread is bounded by the packet, not by the database: past this many messages it says so. */
export const PACKET_MAX_MESSAGES = 5000;
const PACKET_MAX_EVENTS = 2000;
const PACKET_MAX_LEADS = 200;

export type PacketEntry = {
  /** epoch ms (UTC). */
  at: number;
  /** "lead consent" | "consent" (opt-out, opt-in) | "hold" (quiet hours, refused) | "message". */
  record: "lead consent" | "consent" | "hold" | "message";
  what: string;
  channel: string;
  direction: "inbound" | "outbound" | "";
  status: string;
  from: string;
  to: string;
  text: string;
  reason: string;
  messageId: number | null;
};

export type TcpaPacket = Awaited<ReturnType<typeof buildTcpaPacket>>;

/** The columns of a message the packet reads. */
type ThreadRow = Pick<
  Message,
  | "id"
  | "channel"
  | "direction"
  | "kind"
  | "status"
  | "phone"
  | "email"
  | "fromAddress"
  | "content"
  | "errorCode"
  | "errorMessage"
  | "isMarketing"
  | "createdAt"
  | "sentAt"
  | "scheduledAt"
>;

const EVENT_WHAT: Record<ComplianceEvent["kind"], string> = {
  opt_out: "Opted out",
  opt_in: "Opted back in",
  refused: "Send refused",
  quiet_hours: "Held for the calling window",
  held: "Held by a sending rule",
};

function leadEntry(l: LeadConsent): PacketEntry {
  return {
    at: l.consentedAt.getTime(),
    record: "lead consent",
    what: `Consent from ${l.source} (${CONSENT_PURPOSE_LABEL[consentPurposeOf(l.purpose)].toLowerCase()})`,
    channel: "",
    direction: "",
    status: "",
    from: l.ipAddress ?? "",
    to: l.sellerName ?? "",
    text: l.consentText ?? "",
    reason: l.pageUrl ?? "",
    messageId: null,
  };
}

type ListConsent = Awaited<ReturnType<typeof selectImportConsent>>[number];

/** An imported list's consent record: the seller and wording given for the whole file, at the contact's import. */
function listEntry(l: ListConsent): PacketEntry {
  return {
    at: (l.at ?? l.createdAt).getTime(),
    record: "lead consent",
    what: `Consent with the imported list ${l.fileName} (${CONSENT_PURPOSE_LABEL[consentPurposeOf(l.purpose)].toLowerCase()})`,
    channel: "",
    direction: "",
    status: "",
    from: "",
    to: l.seller ?? "",
    text: l.text ?? "",
    reason: "",
    messageId: null,
  };
}

function eventEntry(e: ComplianceEvent): PacketEntry {
  const consent = e.kind === "opt_out" || e.kind === "opt_in";
  return {
    at: e.at,
    record: consent ? "consent" : "hold",
    what: EVENT_WHAT[e.kind],
    channel: e.channel,
    direction: consent && e.inboundContent ? "inbound" : "",
    status: "",
    from: consent ? (e.address ?? "") : "",
    to: consent ? (e.inboundTo ?? "") : (e.address ?? ""),
    text: e.inboundContent ?? "",
    reason: e.source ?? "",
    messageId: e.messageId,
  };
}

/** One contact's packet: its record, then every entry oldest first. `not_found` outside the viewer's scope. */
export async function buildTcpaPacket(db: Db, contactId: number, viewer: ContactViewer, now: Date) {
  const contact = await getContact(db, contactId, viewer);
  const [leads, events, thread, lists] = (await runBatch(db, [
    db
      .select()
      .from(leadConsents)
      .where(eq(leadConsents.contactId, contactId))
      .orderBy(asc(leadConsents.createdAt), asc(leadConsents.id))
      .limit(PACKET_MAX_LEADS),
    db
      .select()
      .from(complianceEvents)
      .where(eq(complianceEvents.contactId, contactId))
      .orderBy(asc(complianceEvents.contactId), asc(complianceEvents.id))
      .limit(PACKET_MAX_EVENTS),
    db
      .select({
        id: messages.id,
        channel: messages.channel,
        direction: messages.direction,
        kind: messages.kind,
        status: messages.status,
        phone: messages.phone,
        email: messages.email,
        fromAddress: messages.fromAddress,
        content: messages.content,
        errorCode: messages.errorCode,
        errorMessage: messages.errorMessage,
        isMarketing: messages.isMarketing,
        createdAt: messages.createdAt,
        sentAt: messages.sentAt,
        scheduledAt: messages.scheduledAt,
      })
      .from(messages)
      .where(eq(messages.contactId, contactId))
      .orderBy(asc(messages.contactId), asc(messages.id))
      .limit(PACKET_MAX_MESSAGES + 1),
    // The consent record of the list that brought the contact in (decision 071): the contact page's own read.
    selectImportConsent(db, contactId),
  ])) as [LeadConsent[], ComplianceEvent[], ThreadRow[], ListConsent[]];
  const truncated = thread.length > PACKET_MAX_MESSAGES;
  const messageEntries = thread.slice(0, PACKET_MAX_MESSAGES).map(
    (m): PacketEntry => ({
      at: (m.sentAt ?? m.createdAt).getTime(),
      record: "message",
      what: `${m.direction === "inbound" ? "Received" : "Sent"} ${m.kind}${m.isMarketing && m.direction === "outbound" ? " (marketing)" : ""}`,
      channel: m.channel,
      direction: m.direction,
      status: m.status,
      from: m.direction === "inbound" ? (m.phone ?? m.email ?? "") : (m.fromAddress ?? ""),
      to: m.direction === "inbound" ? (m.fromAddress ?? "") : (m.phone ?? m.email ?? ""),
      text: m.content,
      reason:
        [m.errorCode, m.errorMessage].filter(Boolean).join(" ") +
        (m.status === "pending" && m.scheduledAt ? ` (due ${m.scheduledAt.toISOString()})` : ""),
      messageId: m.id,
    }),
  );
  const entries = [...lists.map(listEntry), ...leads.map(leadEntry), ...events.map(eventEntry), ...messageEntries].sort(
    (a, b) => a.at - b.at || (a.messageId ?? 0) - (b.messageId ?? 0),
  );
  return {
    contact: {
      id: contact.id,
      name: `${contact.firstName} ${contact.lastName}`.trim(),
      phone: contact.phone,
      email: contact.email,
      state: normalizeState(contact.state) ?? stateForZip(contact.zipCode),
      zipCode: contact.zipCode,
      timeZone: contact.timeZone,
      consentSource: contact.consentSource,
      consentAt: contact.consentAt?.getTime() ?? null,
      optedOutAt: contact.optedOutAt?.getTime() ?? null,
      optedOutSource: contact.optedOutSource,
      optedOutScope: contact.optedOutScope,
      emailUnsubscribedAt: contact.emailUnsubscribedAt?.getTime() ?? null,
      createdAt: contact.createdAt.getTime(),
    },
    entries,
    truncated,
    generatedAt: now.getTime(),
  };
}

/** "Nov 18, 2026, 11:00:00 AM EST" in the contact's zone, or "" without a usable one. */
export function contactLocalTime(ms: number, timeZone: string | null): string {
  if (!timeZone) return "";
  try {
    return new Intl.DateTimeFormat("en-US", {
      timeZone,
      year: "numeric",
      month: "short",
      day: "numeric",
      hour: "numeric",
      minute: "2-digit",
      second: "2-digit",
      timeZoneName: "short",
    }).format(ms);
  } catch {
    return "";
  }
}

const CSV_COLUMNS = [
  "at_utc",
  "at_contact_local",
  "record",
  "what",
  "channel",
  "direction",
  "from",
  "to",
  "text",
  "status",
  "reason",
  "message_id",
  "contact_id",
  "contact_phone",
  "contact_time_zone",
];

/** The packet as CSV: one line per entry, oldest first, each naming the contact (cells formula-safe, CRLF). */
export function tcpaPacketCsv(packet: TcpaPacket): string {
  const c = packet.contact;
  const lines = packet.entries.map((e) =>
    [
      new Date(e.at).toISOString(),
      contactLocalTime(e.at, c.timeZone),
      e.record,
      e.what,
      e.channel,
      e.direction,
      e.from,
      e.to,
      e.text,
      e.status,
      e.reason,
      e.messageId === null ? "" : String(e.messageId),
      String(c.id),
      c.phone,
      c.timeZone ?? "",
    ]
      .map(csvCell)
      .join(","),
  );
  return [CSV_COLUMNS.map(csvCell).join(","), ...lines].join("\r\n") + "\r\n";
}
