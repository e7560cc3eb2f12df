import { sql } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import { assessPhone } from "~/contacts/phone";
import { runBatch, type Db } from "~/db/client.server";
import type { JobOutcome } from "~/jobs/handle-job-batch.server";
import type { SendJob } from "~/jobs/jobs";
import { OPTED_OUT_REASON, suppressStatements, UNSUBSCRIBED_REASON } from "./compliance.server";
import type { MessagingConfig } from "./config.server";
import { carryLateness, createSendGate, nextUtcDay, projectSlots, reserveSendSlots } from "./pacing.server";
import { ProviderError, type EmailProvider, type SendAccepted, type SmsProvider } from "./providers/provider";
import { nextAllowedSendTime } from "./quiet-hours";
import { normalizeState, stateForZip } from "~/contacts/us-geo";
import { renderQuickSend, renderTemplate } from "./render";
import { smsSegments } from "./segments";
import { unsubscribeUrls } from "./unsubscribe.server";
import { renderEmail } from "./render-email";
import { applyStatusBacklog } from "./record-status.server";

/** Any state of STRICT_WINDOW_STATES: stands for "state unknown" so the 20:00 end applies. */
const STRICTEST_STATE = "FL";

export type SendDeps = {
  db: Db;
  sms: SmsProvider;
  email: EmailProvider;
  config: MessagingConfig;
  now: () => Date;
  sleep?: (ms: number) => Promise<void>;
};

// Statements that look rows up by id write `+status`: the unary plus stops SQLite from choosing the status
// index, which with a large backlog (10k `queued`) scans every queued row per batch instead of 50 id lookups.

/** A Worker has 6 simultaneous outbound connections; more only queue inside the runtime. */
export const SEND_CONCURRENCY = 6;
export const MAX_ATTEMPTS = 8;
/** Provider error codes after which the request may or may not have been accepted. */
const AMBIGUOUS = new Set(["network", "timeout"]);
/** A message that waited this long for its slot re-checks the suppression list before it goes. */
const RECHECK_AFTER_MS = 2000;
/** That re-check runs this long before the slot, so its round trip does not make the send late. */
const RECHECK_LEAD_MS = 20;
const LOCAL_ADDRESS_PLACEHOLDER = "Your company's postal address (set COMPANY_ADDRESS)";
const PACING_NOTE = "Waiting for a send slot (sender rate limit)";
/** Deferred messages come back through the cron this long before their expected slot (cron runs each minute). */
const PACING_LEAD_MS = 60_000;
const QUIET_HOURS_NOTE = "Deferred: outside allowed sending hours in the recipient's time zone";
const DAILY_CAP_NOTE = "Deferred: the sending number reached its daily limit";

type Row = {
  id: number;
  channel: "sms" | "email";
  kind: string;
  status: string;
  phone: string | null;
  email: string | null;
  subject: string | null;
  content: string;
  is_marketing: number;
  attempts: number;
  pacing_deferrals: number;
  contact_id: number | null;
  first_name: string | null;
  last_name: string | null;
  c_phone: string | null;
  c_email: string | null;
  company: string | null;
  address: string | null;
  city: string | null;
  state: string | null;
  zip_code: string | null;
  time_zone: string | null;
  sendable: number | null;
  unsendable_reason: string | null;
  opted_out_at: number | null;
  email_unsubscribed_at: number | null;
  campaign_id: number | null;
  campaign_name: string | null;
  suppressed: number;
};

type Outcome = {
  id: number;
  status: "sent" | "delivered" | "failed" | "skipped" | "pending" | "queued" | "sending";
  sid?: string;
  provider?: string;
  from?: string;
  segments?: number;
  errorCode?: string | null;
  errorMessage?: string | null;
  scheduledAt?: number;
  sentAt?: number;
  /** 1 when the sender's rate limit sent this message back to wait. */
  paced?: number;
};

const defaultSleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

function backoffSeconds(attempts: number) {
  return Math.min(5 * 2 ** Math.max(0, attempts - 1), 900);
}

/** Renders `{{variables}}` and `#PLACEHOLDERS#` with the contact's current data, at send time. */
function render(row: Row, now: Date) {
  const values = {
    firstName: row.first_name,
    lastName: row.last_name,
    email: row.c_email ?? row.email,
    phone: row.c_phone ?? row.phone,
    company: row.company,
    address: row.address,
    city: row.city,
    state: row.state,
    zipCode: row.zip_code,
    campaignName: row.campaign_name,
  };
  const text = renderTemplate(row.content, values, { now, timeZone: row.time_zone ?? undefined }).text;
  const subject = row.subject ? renderTemplate(row.subject, values, { now, timeZone: row.time_zone ?? undefined }).text : null;
  const contact = { firstName: row.first_name ?? "", lastName: row.last_name ?? "", company: row.company ?? "", address: row.address ?? "" };
  // #PLACEHOLDERS# become "" when there is no contact (SPEC §5), never go out literally.
  return { text: renderQuickSend(text, contact), subject };
}

/** Compliance before anything leaves: opt-outs, unsendable numbers, quiet hours. null = send. */
function complianceOutcome(row: Row, now: Date): Outcome | null {
  const exempt = row.kind === "compliance";
  if (row.channel === "sms") {
    if (!exempt && (row.suppressed || row.opted_out_at)) return { id: row.id, status: "skipped", errorMessage: OPTED_OUT_REASON };
    const to = row.c_phone ?? row.phone;
    if (!to) return { id: row.id, status: "skipped", errorMessage: "No phone number" };
    if (row.contact_id && row.sendable === 0) return { id: row.id, status: "skipped", errorMessage: row.unsendable_reason ?? "Phone number is not sendable" };
    const check = assessPhone(to);
    if (!check.sendable) return { id: row.id, status: "skipped", errorMessage: check.reason };
  } else {
    if (!exempt && (row.suppressed || row.email_unsubscribed_at)) return { id: row.id, status: "skipped", errorMessage: UNSUBSCRIBED_REASON };
    if (!(row.c_email ?? row.email)) return { id: row.id, status: "skipped", errorMessage: "No email address" };
  }
  if (row.is_marketing) {
    // A state that cannot be told (none given, none from the ZIP) gets the strictest state window (08:00–20:00).
    const state = normalizeState(row.state) ?? stateForZip(row.zip_code) ?? STRICTEST_STATE;
    const allowed = nextAllowedSendTime(now, row.time_zone, state);
    if (allowed.getTime() > now.getTime()) {
      return { id: row.id, status: "pending", scheduledAt: allowed.getTime(), errorMessage: QUIET_HOURS_NOTE };
    }
  }
  return null;
}

/**
 * The queue consumer for `send` jobs, batch-aware: one read, one claim, one pacing reservation and one
 * result write per batch; provider calls run concurrently (≤ 6) at their paced slots.
 *
 * Exactly-once towards the provider: a row is sent only by the consumer whose conditional
 * `queued → sending` claim returned it. A redelivered job finds the row no longer `queued` and does nothing;
 * a row left in `sending` (crash after the provider accepted) is reconciled by the cron, never resent blindly.
 */
export async function sendMessages(jobs: SendJob[], deps: SendDeps): Promise<Map<number, JobOutcome>> {
  const { db, config } = deps;
  const sleep = deps.sleep ?? defaultSleep;
  const now = deps.now();
  const t = now.getTime();
  // Slots are on the consumer's clock (deps.now, fixed in tests); waiting runs on the real one. 0 in production.
  const skew = Date.now() - t;
  const outcomes = new Map<number, JobOutcome>();
  const jobIndex = new Map<number, number[]>();
  jobs.forEach((j, i) => jobIndex.set(j.messageId, [...(jobIndex.get(j.messageId) ?? []), i]));
  const retry = (id: number, seconds: number) => jobIndex.get(id)?.forEach((i) => outcomes.set(i, { retryAfterSeconds: Math.ceil(seconds) }));

  const rows = await db.all<Row>(sql`
    SELECT m.id, m.channel, m.kind, m.status, m.phone, m.email, m.subject, m.content, m.is_marketing, m.attempts, m.pacing_deferrals, m.contact_id,
      c.first_name, c.last_name, c.phone AS c_phone, c.email AS c_email, c.company, c.address, c.city, c.state, c.zip_code,
      c.time_zone, c.sendable, c.unsendable_reason, c.opted_out_at, c.email_unsubscribed_at,
      m.campaign_id, cp.name AS campaign_name,
      EXISTS (SELECT 1 FROM suppressions s WHERE s.channel = m.channel
              AND s.address = CASE m.channel WHEN 'sms' THEN coalesce(c.phone, m.phone) ELSE coalesce(c.email, m.email) END) AS suppressed
    FROM messages m
    LEFT JOIN contacts c ON c.id = m.contact_id
    LEFT JOIN campaigns cp ON cp.id = m.campaign_id
    WHERE m.id IN (SELECT value FROM json_each(${JSON.stringify([...jobIndex.keys()])})) AND +m.status = 'queued'`);

  // 1. Decide: compliance outcomes now, the rest wants sending.
  const decided: Outcome[] = [];
  const toSend: Row[] = [];
  for (const row of rows) {
    if (row.attempts >= MAX_ATTEMPTS) {
      decided.push({ id: row.id, status: "failed", errorMessage: `Gave up after ${row.attempts} attempts` });
      continue;
    }
    const c = complianceOutcome(row, now);
    if (c) decided.push(c);
    else toSend.push(row);
  }

  // 2. Pacing per sending number (SMS). Messages without a slot in the window retry later, still `queued`.
  const smsRows = toSend.filter((r) => r.channel === "sms");
  const emailRows = toSend.filter((r) => r.channel === "email");
  const slotOf = new Map<number, number>();
  if (smsRows.length) {
    const res = await reserveSendSlots(db, deps.sms.sender, smsRows.length, {
      now: t,
      ratePerSecond: config.smsRatePerSecond,
      dailyCap: config.smsDailyCap,
      windowMs: config.pacingWindowMs,
    });
    const deferred = smsRows.slice(res.slots.length, res.slots.length + res.deferred);
    // First time back: a place at the end of the sender's line. Already placed once: try again soon, so a
    // message pushed back by other traffic keeps its turn instead of going to the end again.
    const firstTime = deferred.filter((r) => r.pacing_deferrals === 0);
    const times = await projectSlots(db, deps.sms.sender, firstTime.length, { now: t, ratePerSecond: config.smsRatePerSecond, after: res.nextFreeMs });
    const timeOf = new Map(firstTime.map((r, i) => [r.id, times[i]]));
    smsRows.forEach((r, i) => {
      if (i < res.slots.length) slotOf.set(r.id, res.slots[i]);
      else if (i < res.slots.length + res.deferred) {
        const expected = timeOf.get(r.id) ?? res.nextFreeMs;
        decided.push({ id: r.id, status: "pending", scheduledAt: Math.max(t, expected - PACING_LEAD_MS), errorMessage: PACING_NOTE, paced: 1 });
      } else decided.push({ id: r.id, status: "pending", scheduledAt: nextUtcDay(t), errorMessage: DAILY_CAP_NOTE });
    });
  }
  emailRows.forEach((r) => slotOf.set(r.id, t));
  const sending = toSend.filter((r) => slotOf.has(r.id));

  // 3. Claim (queued → sending, with the rendered text) and apply the compliance outcomes, in one write.
  const rendered = new Map(sending.map((r) => [r.id, render(r, now)]));
  const claimJson = JSON.stringify([
    ...sending.map((r) => ({ id: r.id, status: "sending", content: rendered.get(r.id)!.text, subject: rendered.get(r.id)!.subject, claim: 1 })),
    ...decided.map((o) => ({ id: o.id, status: o.status, errorMessage: o.errorMessage ?? null, scheduledAt: o.scheduledAt ?? null, claim: 0, paced: o.paced ?? 0 })),
  ]);
  const claimed = claimJson === "[]"
    ? []
    : await db.all<{ id: number; status: string }>(sql`
        UPDATE messages SET
          status = json_extract(j.value,'$.status'),
          content = coalesce(json_extract(j.value,'$.content'), messages.content),
          subject = coalesce(json_extract(j.value,'$.subject'), messages.subject),
          error_message = json_extract(j.value,'$.errorMessage'),
          scheduled_at = coalesce(json_extract(j.value,'$.scheduledAt'), messages.scheduled_at),
          claimed_at = CASE WHEN json_extract(j.value,'$.claim') = 1 THEN ${t} ELSE messages.claimed_at END,
          attempts = messages.attempts + json_extract(j.value,'$.claim'),
          pacing_deferrals = messages.pacing_deferrals + coalesce(json_extract(j.value,'$.paced'), 0),
          updated_at = ${t}
        FROM json_each(${claimJson}) AS j
        WHERE messages.id = json_extract(j.value,'$.id') AND +messages.status = 'queued'
        RETURNING messages.id AS id, messages.status AS status`);
  const mine = new Set(claimed.filter((c) => c.status === "sending").map((c) => c.id));

  // 4. Send, ≤ SEND_CONCURRENCY at a time, each not before its slot.
  const claimedAt = Date.now();
  const work = sending.filter((r) => mine.has(r.id)).sort((a, b) => slotOf.get(a.id)! - slotOf.get(b.id)!);
  const results: Outcome[] = [];
  const suppressions: BatchItem<"sqlite">[] = [];
  let next = 0;
  const clock = () => Date.now() - skew;
  const gate = createSendGate({ ratePerSecond: config.smsRatePerSecond, clock, sleep });
  const worker = async () => {
    while (next < work.length) {
      const row = work[next++];
      const slot = slotOf.get(row.id)!;
      const wait = slot - (row.channel === "sms" ? RECHECK_LEAD_MS : 0) - clock();
      if (wait > 0) await sleep(wait);
      // A STOP may have arrived while this message waited for its paced slot: look again before sending.
      if (Date.now() - claimedAt > RECHECK_AFTER_MS && row.kind !== "compliance" && (await suppressedNow(db, row))) {
        results.push({ id: row.id, status: "skipped", errorMessage: row.channel === "sms" ? OPTED_OUT_REASON : UNSUBSCRIBED_REASON });
        continue;
      }
      // Not before its slot, nor so soon after the sends before it that a late one bunches up with them.
      if (row.channel === "sms") await gate.wait(slot);
      results.push(await sendOne(row, rendered.get(row.id)!, deps, suppressions, retry));
    }
  };
  await Promise.all(Array.from({ length: Math.min(SEND_CONCURRENCY, work.length) }, worker));

  // 5. Record every outcome of the batch in one transaction.
  if (results.length) {
    const json = JSON.stringify(results);
    const sentByCampaign = new Map<number, number>();
    const campaignOf = new Map(work.map((w) => [w.id, w.campaign_id]));
    for (const r of results) {
      const campaignId = campaignOf.get(r.id);
      if (campaignId && (r.status === "sent" || r.status === "delivered")) {
        sentByCampaign.set(campaignId, (sentByCampaign.get(campaignId) ?? 0) + 1);
      }
    }
    await runBatch(db, [
      db.run(sql`
        UPDATE messages SET
          status = json_extract(j.value,'$.status'),
          twilio_sid = coalesce(json_extract(j.value,'$.sid'), messages.twilio_sid),
          provider = coalesce(json_extract(j.value,'$.provider'), messages.provider),
          from_address = coalesce(json_extract(j.value,'$.from'), messages.from_address),
          segments = coalesce(json_extract(j.value,'$.segments'), messages.segments),
          error_code = json_extract(j.value,'$.errorCode'),
          error_message = json_extract(j.value,'$.errorMessage'),
          sent_at = coalesce(json_extract(j.value,'$.sentAt'), messages.sent_at),
          updated_at = ${Date.now()}
        FROM json_each(${json}) AS j
        WHERE messages.id = json_extract(j.value,'$.id') AND +messages.status = 'sending'`),
      ...[...sentByCampaign].map(([id, n]) => db.run(sql`UPDATE campaigns SET sent_count = sent_count + ${n} WHERE id = ${id}`)),
      ...suppressions,
      ...(gate.resumeAt === null ? [] : [carryLateness(db, deps.sms.sender, gate.resumeAt)]),
    ]);
    const sids = results.flatMap((r) => (r.sid ? [r.sid] : []));
    if (sids.length) await applyStatusBacklog(db, deps.now(), sids);
  }
  return outcomes;
}

async function suppressedNow(db: Db, row: Row) {
  const address = row.channel === "sms" ? (row.c_phone ?? row.phone) : (row.c_email ?? row.email);
  return Boolean(await db.get(sql`SELECT 1 AS x FROM suppressions WHERE channel = ${row.channel} AND address = ${address}`));
}

async function sendOne(
  row: Row,
  content: { text: string; subject: string | null },
  deps: SendDeps,
  suppressions: BatchItem<"sqlite">[],
  retry: (id: number, seconds: number) => void,
): Promise<Outcome> {
  const now = deps.now();
  try {
    let accepted: SendAccepted;
    let from: string;
    if (row.channel === "sms") {
      accepted = await deps.sms.send({
        to: (row.c_phone ?? row.phone)!,
        body: content.text,
        statusCallback: `${deps.config.publicBaseUrl}/webhooks/twilio/status`,
        messageId: row.id,
      });
      from = deps.sms.sender;
    } else {
      const to = (row.c_email ?? row.email)!;
      const companyAddress = deps.config.companyAddress ?? (deps.email.name === "outbox" ? LOCAL_ADDRESS_PLACEHOLDER : null);
      if (!companyAddress) {
        return { id: row.id, status: "failed", errorCode: "config", errorMessage: "COMPANY_ADDRESS is not configured: marketing email must carry the sender's postal address (CAN-SPAM)" };
      }
      const urls = await unsubscribeUrls(deps.config.publicBaseUrl, deps.config.unsubscribeSecret, to);
      const body = renderEmail(content.text, { unsubscribeUrl: urls.page, companyAddress });
      accepted = await deps.email.send({ to, subject: content.subject ?? "", text: body.text, html: body.html, unsubscribeUrl: urls.oneClick, messageId: row.id });
      from = deps.email.sender;
    }
    return {
      id: row.id,
      status: accepted.status === "delivered" ? "delivered" : "sent",
      sid: accepted.sid,
      provider: row.channel === "sms" ? deps.sms.name : deps.email.name,
      from,
      segments: row.channel === "sms" ? smsSegments(content.text).segments : undefined,
      sentAt: now.getTime(),
      errorCode: null,
      errorMessage: null,
    };
  } catch (err) {
    const e = err instanceof ProviderError ? err : new ProviderError("retry", String((err as Error)?.message ?? err));
    // A timeout or dropped connection is ambiguous: the provider may have accepted the message. Never retry
    // blindly. SMS: ask Twilio now; if it does not show the message yet (its list can lag), stay `sending` and
    // let the reconciler ask again after STUCK_SENDING_MS. Email has no lookup: fail rather than send twice.
    if (e.kind === "retry" && AMBIGUOUS.has(e.code ?? "")) {
      if (row.channel === "email") {
        return { id: row.id, status: "failed", errorCode: e.code, errorMessage: `Outcome unknown (${e.message}); not resent to avoid a duplicate` };
      }
      const to = (row.c_phone ?? row.phone)!;
      const found = await deps.sms
        .findSent(to, new Date(now.getTime() - 60_000))
        .then((list) => list.find((m) => m.body === content.text))
        .catch(() => undefined);
      if (found) {
        return { id: row.id, status: "sent", sid: found.sid, provider: deps.sms.name, from: deps.sms.sender, segments: smsSegments(content.text).segments, sentAt: now.getTime(), errorCode: null, errorMessage: null };
      }
      return { id: row.id, status: "sending", errorCode: e.code, errorMessage: `Outcome unknown (${e.message}); checking with the provider` };
    }
    if (e.kind === "retry" && row.attempts + 1 < MAX_ATTEMPTS) {
      retry(row.id, e.retryAfterSeconds ?? backoffSeconds(row.attempts + 1));
      return { id: row.id, status: "queued", errorCode: e.code, errorMessage: e.message };
    }
    if (e.optedOut) {
      const address = row.channel === "sms" ? (row.c_phone ?? row.phone)! : (row.c_email ?? row.email)!;
      suppressions.push(...suppressStatements(deps.db, { channel: row.channel, address, reason: `provider:${e.code ?? "opted-out"}` }, now));
    }
    return { id: row.id, status: "failed", errorCode: e.code, errorMessage: e.message };
  }
}
