import { sql } from "drizzle-orm";
import { bulkUpdateSql, type JsonFields } from "~/db/bulk-update.server";
import { runBatch, type Db } from "~/db/client.server";
import { campaignEnrollments, type PictureAttachment } from "~/db/schema";
import type { JobQueue } from "~/lib/job-queue";
import { createOutboundMessages, type OutboundInput } from "~/messaging/create-outbound-messages.server";
import { delayMs } from "./delay-label";
import { nextInStepWindow } from "./send-window";
import { contactsStillIn } from "~/segments/segment-members.server";
import { loadDefinitions } from "~/segments/segment-access.server";

/** Due enrolments read per statement (through the (status, next_run_at) index, in due order). */
export const DISPATCH_BATCH = 500;

/** An enrolment the dispatcher acts on, as the due scan reads it. */
export type DueEnrollment = {
  id: number;
  campaign_id: number;
  contact_id: number;
  next_step_number: number;
  next_run_at: number;
  anchor_at: number | null;
};
type Due = DueEnrollment;
type Step = {
  id: number;
  campaign_id: number;
  position: number;
  message_type: "sms" | "email";
  subject: string | null;
  content: string;
  delay_days: number;
  delay_hours: number;
  window_start: number | null;
  window_end: number | null;
  window_weekdays: number;
  /** PictureAttachment JSON (decision 076), or null. */
  picture: string | null;
};
type ContactRow = { id: number; phone: string | null; email: string | null; time_zone: string | null };

/** rowsRead: D1 rows read by the dispatcher's reads (dueScanRowsRead of them by the due scan itself). */
export type DispatchResult = {
  due: number;
  created: number;
  rescheduled: number;
  completed: number;
  parked: number;
  rowsRead: number;
  dueScanRowsRead: number;
  /** Enrolments stopped because the contact no longer fits the campaign's segment. */
  leftSegment: number;
};

const noneDispatched = (due: number): DispatchResult => ({
  due,
  created: 0,
  rescheduled: 0,
  completed: 0,
  parked: 0,
  rowsRead: 0,
  dueScanRowsRead: 0,
  leftSegment: 0,
});

/**
 * Cron task: creates the message of every campaign step that has come due, through the one send pipeline
 * (`createOutboundMessages`, key `step:{enrollmentId}:{stepId}`, so overlapping ticks and redeliveries create
 * nothing twice). Reads only due enrolments — O(due), never O(all) — in bounded batches:
 * - the campaign is not running → the enrolment is parked (`paused`) until resume;
 * - the step is the first active one at or after the enrolment's position (inactive/deleted steps are skipped);
 *   none left → the enrolment is completed;
 * - its due time is anchor (the moment the previous step went out) + the step's delay, moved into the step's send
 *   window; later than now → rescheduled, else the message is created and the enrolment waits (next_run_at NULL)
 *   until the pipeline records the send, which advances it (trigger, migration 0015).
 */
export async function dispatchDueSteps(
  db: Db,
  queue: JobQueue,
  now: Date,
  opts: { batch?: number; maxPerTick?: number } = {},
): Promise<DispatchResult> {
  const batch = opts.batch ?? DISPATCH_BATCH;
  const maxPerTick = opts.maxPerTick ?? 20_000;
  const t = now.getTime();
  const result = noneDispatched(0);
  for (;;) {
    // raw-sql: d1-meta
    const dueRes = await db.$client
      .prepare(
        `SELECT id, campaign_id, contact_id, next_step_number, next_run_at, anchor_at FROM campaign_enrollments
         WHERE status = 'active' AND next_run_at <= ? ORDER BY next_run_at LIMIT ?`,
      )
      .bind(t, batch)
      .all<Due>();
    result.rowsRead += dueRes.meta.rows_read ?? 0;
    result.dueScanRowsRead += dueRes.meta.rows_read ?? 0;
    const due = dueRes.results;
    if (due.length === 0) break;
    result.due += due.length;
    await dispatchBatch(db, queue, due, t, now, result);
    if (due.length < batch || result.due >= maxPerTick) break;
  }
  return result;
}

/**
 * The same dispatch for enrolments the caller just created (a lead's trigger rules, runLeadTriggers): their first
 * step is created now — queued, so the send queue has it at once — when it is due and inside its window, else the
 * enrolment is rescheduled to the window's opening for the cron. Quiet hours are the consumer's, as for any step.
 */
export async function dispatchEnrollments(db: Db, queue: JobQueue, due: DueEnrollment[], now: Date) {
  const result = noneDispatched(due.length);
  if (due.length) await dispatchBatch(db, queue, due, now.getTime(), now, result);
  return result;
}

async function dispatchBatch(db: Db, queue: JobQueue, due: Due[], t: number, now: Date, result: DispatchResult) {
  const campaignIds = [...new Set(due.map((d) => d.campaign_id))];
  const [campaignRes, stepRes, contactRes] = await db.$client.batch([
    // raw-sql: d1-meta
    db.$client
      .prepare(`SELECT id, status, created_by, segment_id FROM campaigns WHERE id IN (SELECT value FROM json_each(?))`)
      .bind(JSON.stringify(campaignIds)),
    // raw-sql: d1-meta
    db.$client
      .prepare(
        `SELECT id, campaign_id, position, message_type, subject, content, delay_days, delay_hours, window_start, window_end, window_weekdays, picture
         FROM campaign_steps WHERE campaign_id IN (SELECT value FROM json_each(?)) AND is_active = 1 ORDER BY campaign_id, position`,
      )
      .bind(JSON.stringify(campaignIds)),
    // raw-sql: d1-meta
    db.$client
      .prepare(`SELECT id, phone, email, time_zone FROM contacts WHERE id IN (SELECT value FROM json_each(?))`)
      .bind(JSON.stringify([...new Set(due.map((d) => d.contact_id))])),
  ]);
  result.rowsRead +=
    (campaignRes.meta.rows_read ?? 0) + (stepRes.meta.rows_read ?? 0) + (contactRes.meta.rows_read ?? 0);
  const campaignRows = campaignRes.results as {
    id: number;
    status: string;
    created_by: number | null;
    segment_id: number | null;
  }[];
  const running = new Set(campaignRows.filter((c) => c.status === "running").map((c) => c.id));
  // The campaign's owner is the sender of its steps: {{salesRep}} and friends render from them (decision 027).
  const ownerOf = new Map(campaignRows.map((c) => [c.id, c.created_by]));
  const stepsOf = new Map<number, Step[]>();
  for (const s of stepRes.results as Step[]) stepsOf.set(s.campaign_id, [...(stepsOf.get(s.campaign_id) ?? []), s]);
  const contactOf = new Map((contactRes.results as ContactRow[]).map((c) => [c.id, c]));

  const left = await leftTheirSegment(db, campaignRows, due, running, now);
  const park: Due[] = [];
  const complete: Due[] = [];
  const reschedule: { d: Due; at: number }[] = [];
  const send: { d: Due; step: Step; at: number }[] = [];
  for (const d of due) {
    if (!running.has(d.campaign_id)) {
      park.push(d);
      continue;
    }
    if (left.has(d.id)) continue;
    const step = stepsOf.get(d.campaign_id)?.find((s) => s.position >= d.next_step_number);
    if (!step) {
      complete.push(d);
      continue;
    }
    const base = (d.anchor_at ?? d.next_run_at) + delayMs(step.delay_days, step.delay_hours);
    const at =
      step.window_start !== null && step.window_end !== null
        ? nextInStepWindow(base, contactOf.get(d.contact_id)?.time_zone ?? null, {
            startMinute: step.window_start,
            endMinute: step.window_end,
            weekdaysOnly: step.window_weekdays === 1,
          })
        : base;
    if (at > t) reschedule.push({ d, at });
    else send.push({ d, step, at });
  }

  // Messages first, then mark the enrolments as waiting for them: a crash in between leaves the enrolment due and
  // the next tick's insert is a no-op on the idempotency key.
  const inputs: OutboundInput[] = send.map(({ d, step, at }) => {
    const c = contactOf.get(d.contact_id);
    return {
      channel: step.message_type,
      kind: "campaign",
      content: step.content,
      subject: step.message_type === "email" ? step.subject : null,
      // An SMS step's picture goes with each of its texts as MMS (decision 076).
      attachments: step.message_type === "sms" && step.picture ? [JSON.parse(step.picture) as PictureAttachment] : null,
      idempotencyKey: `step:${d.id}:${step.id}`,
      contactId: d.contact_id,
      phone: c?.phone ?? null,
      email: c?.email ?? null,
      scheduledAt: new Date(at),
      campaignId: d.campaign_id,
      stepId: step.id,
      enrollmentId: d.id,
      createdBy: ownerOf.get(d.campaign_id) ?? null,
    };
  });
  if (inputs.length) result.created += (await createOutboundMessages(db, queue, inputs, now)).length;

  // Every write is compare-and-set on what this tick read (position and due time): an overlapping tick, or the
  // pipeline advancing the enrolment meanwhile, makes it a no-op instead of moving the enrolment backwards.
  const e = campaignEnrollments;
  const sameAsRead = (j: JsonFields<{ id: number; ns: number; nr: number }>) =>
    sql`${e.id} = ${j.id} AND +${e.status} = 'active' AND ${e.nextStepNumber} = ${j.ns} AND ${e.nextRunAt} = ${j.nr}`;
  const statements = [];
  if (send.length) {
    const rows = send.map(({ d }) => ({ id: d.id, ns: d.next_step_number, nr: d.next_run_at }));
    statements.push(
      db.run(bulkUpdateSql(e, rows, (j) => ({ set: { nextRunAt: null, updatedAt: t }, where: sameAsRead(j) }))),
    );
  }
  const moves = [
    ...reschedule.map(({ d, at }) => ({ id: d.id, ns: d.next_step_number, nr: d.next_run_at, at, st: "active" })),
    ...park.map((d) => ({ id: d.id, ns: d.next_step_number, nr: d.next_run_at, at: d.next_run_at, st: "paused" })),
    ...complete.map((d) => ({ id: d.id, ns: d.next_step_number, nr: d.next_run_at, at: null, st: "completed" })),
  ];
  const leaving = due.filter((d) => left.has(d.id));
  if (leaving.length) {
    const rows = leaving.map((d) => ({ id: d.id, ns: d.next_step_number, nr: d.next_run_at }));
    statements.push(
      db.run(
        bulkUpdateSql(e, rows, (j) => ({
          set: { nextRunAt: null, status: "stopped", stopReason: LEFT_SEGMENT, updatedAt: t },
          where: sameAsRead(j),
        })),
      ),
    );
  }
  if (moves.length) {
    statements.push(
      db.run(
        bulkUpdateSql(e, moves, (j) => ({
          set: { nextRunAt: j.at, status: j.st, updatedAt: t },
          where: sameAsRead(j),
        })),
      ),
    );
  }
  if (statements.length) await runBatch(db, statements);
  result.rescheduled += reschedule.length;
  result.parked += park.length;
  result.completed += complete.length;
  result.leftSegment += leaving.length;
}

/** The stop reason of an enrolment whose contact no longer fits its campaign's segment (decision 075). */
export const LEFT_SEGMENT = "left_segment";

/**
 * The due enrolments of running campaigns whose audience is a segment and whose contact no longer fits its lasting
 * part (stage, tags, owner, consent, bill, fields): they leave the sequence before this step. Reads the segments by
 * key and the due contacts by key — O(due), as the rest of the dispatch.
 */
async function leftTheirSegment(
  db: Db,
  campaignRows: { id: number; status: string; segment_id: number | null }[],
  due: Due[],
  running: Set<number>,
  now: Date,
): Promise<Set<number>> {
  const left = new Set<number>();
  const withSegment = campaignRows.filter((c) => c.segment_id !== null && running.has(c.id));
  if (!withSegment.length) return left;
  const defs = await loadDefinitions(db, [...new Set(withSegment.map((c) => c.segment_id!))]);
  for (const c of withSegment) {
    const def = defs.get(c.segment_id!);
    if (!def) continue;
    const mine = due.filter((d) => d.campaign_id === c.id);
    const stay = await contactsStillIn(
      db,
      def,
      mine.map((d) => d.contact_id),
      now,
    );
    for (const d of mine) if (!stay.has(d.contact_id)) left.add(d.id);
  }
  return left;
}
