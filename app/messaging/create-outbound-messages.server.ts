import { sql } from "drizzle-orm";
import { bulkInsertStatements } from "~/db/bulk-update.server";
import { runBatch, type Db } from "~/db/client.server";
import { isPicture, messageMedia, messages, type Message, type MessageAttachment, type MessageKind } from "~/db/schema";
import type { JobQueue } from "~/lib/job-queue";
import { sendJobs } from "./enqueue-due-messages.server";
import type { PipelineHooks } from "./pipeline-hooks";

/**
 * Kinds that are marketing: they respect quiet hours. Tests and compliance replies do not, nor an auto-reply (it
 * answers a text the contact just sent) or a staff alert email; an auto-responder's follow-up, minutes or hours
 * later, is marketing. An appointment's texts are not marketing, but a reminder at 6 AM is still a text in the night:
 * they respect quiet hours too (deferred to the morning, never dropped).
 */
export const MARKETING_KINDS: ReadonlySet<MessageKind> = new Set([
  "campaign",
  "broadcast",
  "quick",
  "individual",
  "auto_followup",
  "appointment",
]);
/** Sends by a person: the pipeline's human-send hooks hear of them (auto-responders cancel their follow-ups). */
export const HUMAN_KINDS: ReadonlySet<MessageKind> = new Set(["quick", "individual", "reply"]);

export type OutboundInput = {
  channel: "sms" | "email";
  kind: MessageKind;
  content: string;
  idempotencyKey: string;
  contactId?: number | null;
  phone?: string | null;
  email?: string | null;
  subject?: string | null;
  /** Email only: files it carries (an appointment reminder's .ics), stored with the row and sent with it. */
  attachments?: MessageAttachment[] | null;
  scheduledAt?: Date | null;
  campaignId?: number | null;
  stepId?: number | null;
  enrollmentId?: number | null;
  broadcastId?: number | null;
  createdBy?: number | null;
};

/** Rows per INSERT at most; fewer when their text makes the JSON parameter bigger than D1_VALUE_BUDGET. */
const INSERT_CHUNK = 500;

/**
 * The producer side of the send pipeline. Writes outbound messages first (the durable record), each with a unique idempotency
 * key: inserting the same logical send twice is a no-op. Rows due now are written `queued` and get their queue
 * messages after the commit; later ones wait `pending` for the cron. Returns the ids of
 * rows this call created, and the ids of all rows for the given keys (created now or before).
 * The rows go as one JSON parameter per statement, split by bytes (500 campaign steps of 5,000 characters are
 * several MB; D1 refuses a bound value over 2 MB), every statement in one batch: one round trip, one transaction.
 * A person's SMS (HUMAN_KINDS) must come with the pipeline's hooks, which hear of it once the rows exist: a producer
 * that forgot them would silently skip what the features do on a human send, so it throws instead.
 */
export async function createOutboundMessages(
  db: Db,
  queue: JobQueue,
  inputs: OutboundInput[],
  now: Date,
  hooks?: Pick<PipelineHooks, "humanSend">,
) {
  const t = now.getTime();
  const rows = inputs.map((m) => ({
    ...m,
    isMarketing: MARKETING_KINDS.has(m.kind) ? 1 : 0,
    isTest: m.kind === "test" ? 1 : 0,
    scheduledAt: Math.max(m.scheduledAt?.getTime() ?? t, 0),
    // Due rows are written `queued`, and their queue messages sent right after the commit: the pending → queued
    // UPDATE cost two rows written per message (issue 22). A queue send that fails leaves them queued, which the
    // reconciler re-enqueues (reconcile-messages), as it did when the mark came first.
    status: Math.max(m.scheduledAt?.getTime() ?? t, 0) <= t ? "queued" : "pending",
  }));
  const humanPhones = [
    ...new Set(inputs.filter((m) => m.channel === "sms" && m.phone && HUMAN_KINDS.has(m.kind)).map((m) => m.phone!)),
  ];
  if (humanPhones.length && !hooks) throw new Error("createOutboundMessages: a person's send needs the pipeline hooks");
  type Inserted = Pick<Message, "id" | "status">;
  const inserts = bulkInsertStatements(
    messages,
    rows,
    (j) => ({
      values: {
        channel: j.channel,
        direction: sql`'outbound'`,
        kind: j.kind,
        status: j.status,
        contactId: j.contactId,
        campaignId: j.campaignId,
        stepId: j.stepId,
        enrollmentId: j.enrollmentId,
        broadcastId: j.broadcastId,
        phone: j.phone,
        email: j.email,
        subject: j.subject,
        content: j.content,
        // json_extract of an array gives its JSON text; absent gives NULL.
        attachments: j.attachments,
        idempotencyKey: j.idempotencyKey,
        isMarketing: j.isMarketing,
        isTest: j.isTest,
        scheduledAt: j.scheduledAt,
        attempts: 0,
        createdBy: j.createdBy,
        createdAt: t,
        updatedAt: t,
      },
      onConflict: sql`ON CONFLICT(idempotency_key) DO NOTHING`,
      returning: sql`${messages.id} AS id, ${messages.status} AS status`,
    }),
    { maxRows: INSERT_CHUNK },
  ).map((q) => db.all<Inserted>(q));
  // The pictures an SMS carries (MMS, decision 076) as the message's files, in the same transaction: the thread shows
  // them as it shows a lead's, whichever path sent them (a reply, a campaign step). A key seen before adds nothing.
  const pictures = inputs.flatMap((m) =>
    (m.attachments ?? []).filter(isPicture).map((p, position) => ({ key: m.idempotencyKey, position, ...p })),
  );
  const media = bulkInsertStatements(messageMedia, pictures, (j) => ({
    values: {
      messageId: sql`(SELECT ${messages.id} FROM ${messages} WHERE ${messages.idempotencyKey} = ${j.key})`,
      position: j.position,
      sourceUrl: sql`'outbound'`,
      contentType: j.contentType,
      status: sql`'stored'`,
      r2Key: j.r2Key,
      sizeBytes: j.sizeBytes,
      createdAt: t,
      updatedAt: t,
    },
    onConflict: sql`ON CONFLICT(message_id, position) DO NOTHING`,
  })).map((q) => db.run(q));
  const inserted = ((await runBatch(db, [...inserts, ...media])) as Inserted[][]).slice(0, inserts.length).flat();
  const created = inserted.map((r) => r.id);
  // A person wrote to the contact: the features that care hear of it (app/wiring registers them), in order.
  if (created.length && humanPhones.length) for (const hook of hooks!.humanSend) await hook({ db, now }, humanPhones);
  await sendJobs(
    queue,
    inserted.filter((r) => r.status === "queued").map((r) => r.id),
  );
  return created;
}
