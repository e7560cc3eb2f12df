import { and, eq, exists, isNotNull, not, or, sql, type SQL } from "drizzle-orm";
import { alias } from "drizzle-orm/sqlite-core";
import { fieldsOfRow } from "~/contacts/contact-fields";
import { inJson } from "~/db/bulk-update.server";
import type { Db } from "~/db/client.server";
import { contacts, messages, suppressions } from "~/db/schema";
import { isWithinSendWindow, nextAllowedSendTime } from "./quiet-hours";
import { DEFAULT_RENDER_TIME_ZONE, findUnknownVariables, renderQuickSend, renderTemplate } from "./render";
import { smsSegments } from "./segments";
import { assertNoLinkShortener, findLinkShortener } from "./link-shorteners";
import { formatCount } from "~/lib/format-count";

// "Reply STOP to opt out", "Text STOP to unsubscribe", "opt-out", "unsubscribe", "Stop2End"…
const OPT_OUT_RE = /\b(stop|opt[\s-]?out|unsubscribe|stop2end|end to quit)\b/i;

export const CHECK_CHUNK = 5000;

export interface BroadcastCheckInput {
  type: "sms" | "email";
  subject?: string | null;
  content: string;
  contactIds: number[];
  /** When the messages would go (now when absent): quiet hours are judged at this instant. */
  scheduledAt?: Date | null;
}

export interface BroadcastCheck {
  selected: number;
  /** Messages that will be written (selected contacts that exist, minus the skipped). */
  recipients: number;
  skipped: { total: number; optedOut: number; notSendable: number; missingVariable: number; notFound: number };
  /** variable name → how many recipients lack a value for it. */
  missingByVariable: Record<string, number>;
  unknownVariables: string[];
  segments: { perMessage: number; maxPerMessage: number; total: number; encoding: "GSM-7" | "UCS-2" | null };
  characters: number;
  quietHours: { deferred: number; until: string | null };
  firstTouch: number;
  warnings: { code: "no_opt_out" | "link_shortener" | "unknown_variable"; message: string }[];
}

export function hasOptOutWording(text: string): boolean {
  return OPT_OUT_RE.test(text);
}

const pc = alias(contacts, "c");
const sup = alias(suppressions, "s");
const msg = alias(messages, "m");

/** The picked contacts with what the check needs: opted out (flag or suppression), first marketing touch. */
function checkRows(db: Db, ids: readonly number[], email: boolean) {
  const suppressed = (channel: SQL, address: typeof pc.phone | typeof pc.email) =>
    exists(
      db
        .select({ one: sql`1` })
        .from(sup)
        .where(and(channel, eq(sup.address, address))),
    );
  return db
    .select({
      id: pc.id,
      first_name: pc.firstName,
      last_name: pc.lastName,
      phone: pc.phone,
      email: pc.email,
      company: pc.company,
      address: pc.address,
      city: pc.city,
      state: pc.state,
      zip_code: pc.zipCode,
      time_zone: pc.timeZone,
      sendable: pc.sendable,
      opted_out: (email
        ? or(isNotNull(pc.emailUnsubscribedAt), suppressed(sql`${sup.channel} = 'email'`, pc.email))
        : or(isNotNull(pc.optedOutAt), suppressed(sql`${sup.channel} = 'sms'`, pc.phone)))!.mapWith(Boolean),
      first_touch: not(
        exists(
          db
            .select({ one: sql`1` })
            .from(msg)
            .where(and(eq(msg.contactId, pc.id), sql`${msg.direction} = 'outbound'`, sql`${msg.isMarketing} = 1`)),
        ),
      ).mapWith(Boolean),
    })
    .from(pc)
    .where(inJson(pc.id, ids));
}

/**
 * The pre-send check shown before any broadcast or quick send: who will get it, who will be skipped and why,
 * segments, quiet-hour deferrals and content warnings. Reads the picked contacts in chunks (one JSON parameter
 * each), O(recipients); writes nothing.
 */
export async function checkBroadcast(db: Db, input: BroadcastCheckInput, now: Date): Promise<BroadcastCheck> {
  const ids = [...new Set(input.contactIds)];
  const at = input.scheduledAt && input.scheduledAt.getTime() > now.getTime() ? input.scheduledAt : now;
  const skipped = { total: 0, optedOut: 0, notSendable: 0, missingVariable: 0, notFound: 0 };
  const missingByVariable: Record<string, number> = {};
  let recipients = 0;
  let totalSegments = 0;
  let maxSegments = 0;
  let deferred = 0;
  let until: number | null = null;
  let firstTouch = 0;
  let found = 0;
  let encoding: "GSM-7" | "UCS-2" | null = null;
  const email = input.type === "email";
  // An SMS with a public shortener is refused when sent (issue 29), so the check refuses it too, before any read.
  assertNoLinkShortener(input.type, input.content);
  for (let i = 0; i < ids.length; i += CHECK_CHUNK) {
    const rows = await checkRows(db, ids.slice(i, i + CHECK_CHUNK), email);
    found += rows.length;
    for (const c of rows) {
      if (c.opted_out) {
        skipped.optedOut++;
        continue;
      }
      if (email ? !c.email : !c.sendable) {
        skipped.notSendable++;
        continue;
      }
      const values = fieldsOfRow(c);
      const opts = { now: at, timeZone: c.time_zone ?? DEFAULT_RENDER_TIME_ZONE };
      const body = renderTemplate(input.content, values, opts);
      const subj = email && input.subject ? renderTemplate(input.subject, values, opts) : null;
      const missing = [...new Set([...body.missing, ...(subj?.missing ?? [])])];
      if (missing.length) {
        skipped.missingVariable++;
        for (const m of missing) missingByVariable[m] = (missingByVariable[m] ?? 0) + 1;
        continue;
      }
      recipients++;
      if (c.first_touch) firstTouch++;
      if (!email) {
        // As the consumer renders it: {{variables}}, then the quick-send #PLACEHOLDERS#.
        const seg = smsSegments(
          renderQuickSend(body.text, {
            firstName: c.first_name,
            lastName: c.last_name,
            company: c.company,
            address: c.address,
          }),
        );
        totalSegments += seg.segments;
        maxSegments = Math.max(maxSegments, seg.segments);
        if (seg.encoding === "UCS-2" || encoding === null) encoding = seg.encoding;
        if (!isWithinSendWindow(at, c.time_zone, c.state)) {
          deferred++;
          const next = nextAllowedSendTime(at, c.time_zone, c.state).getTime();
          until = until === null ? next : Math.max(until, next);
        }
      }
    }
  }
  skipped.notFound = ids.length - found;
  skipped.total = skipped.optedOut + skipped.notSendable + skipped.missingVariable + skipped.notFound;

  const sample = renderTemplate(input.content, {}, { now: at });
  const unknownVariables = [
    ...new Set([...findUnknownVariables(input.content), ...(input.subject ? findUnknownVariables(input.subject) : [])]),
  ];
  const warnings: BroadcastCheck["warnings"] = [];
  if (unknownVariables.length)
    warnings.push({
      code: "unknown_variable",
      message: `Unknown variable${unknownVariables.length > 1 ? "s" : ""}: ${unknownVariables.map((u) => `{{${u}}}`).join(", ")}`,
    });
  if (!email && firstTouch > 0 && !hasOptOutWording(input.content)) {
    warnings.push({
      code: "no_opt_out",
      message: `${formatCount(firstTouch)} recipient${firstTouch === 1 ? " gets" : "s get"} a first marketing message without opt-out wording: add "Reply STOP to opt out".`,
    });
  }
  // Email is not carrier-filtered, but spam filters weigh shorteners too: a warning there.
  const shortener = email ? findLinkShortener(`${input.subject ?? ""}\n${input.content}`) : null;
  if (shortener)
    warnings.push({
      code: "link_shortener",
      message: `The text holds a public link shortener (${shortener}); spam filters distrust them. Use a full or branded link.`,
    });
  return {
    selected: ids.length,
    recipients,
    skipped,
    missingByVariable,
    unknownVariables,
    segments: email
      ? { perMessage: 0, maxPerMessage: 0, total: 0, encoding: null }
      : { perMessage: smsSegments(sample.text).segments, maxPerMessage: maxSegments, total: totalSegments, encoding },
    characters: sample.text.length,
    quietHours: { deferred, until: until === null ? null : new Date(until).toISOString() },
    firstTouch,
    warnings,
  };
}
