import { and, count, eq, sql, type SQL } from "drizzle-orm";
import { z } from "zod";
import { runBatch } from "~/db/client.server";
import { broadcasts, messages, segments } from "~/db/schema";
import { isUniqueViolation } from "~/db/unique-violation";
import { AppError } from "~/lib/app-error";
import { zodId } from "~/lib/ids";
import {
  assertKnownVariables,
  assertVariablesFilled,
  contactsWithVariables,
  logSend,
  text,
  type SendRequestDeps,
} from "./check-send-request.server";
import { dispatchDueMessages, sendJobs } from "./enqueue-due-messages.server";
import { resolveDueSegmentBroadcasts } from "./resolve-segment-broadcasts.server";
import { insertBroadcastMessages } from "./insert-broadcast-messages.server";
import { renderTemplate } from "./render";
import { smsSegments } from "./segments";
import { exampleValues } from "~/contacts/variables";
import { isOneLine, SUBJECT_CONTROL_CHARS } from "~/lib/header-text";
import type { Actor } from "~/lib/actor";
import { formatCount } from "~/lib/format-count";

export const MAX_BROADCAST_CONTACTS = 100_000;
const IMMEDIATE_BROADCAST_LIMIT = 1000;
export const broadcastSchema = z
  .object({
    type: z.enum(["sms", "email"], { errorMap: () => ({ message: "type must be sms or email" }) }).default("sms"),
    subject: z.string().trim().max(300).optional().nullable().refine(isOneLine, SUBJECT_CONTROL_CHARS),
    content: text("Please enter message content").pipe(z.string().max(50_000, "Message is too long")),
    contactIds: z
      .array(zodId("contactIds must be positive integers"), {
        invalid_type_error: "Please select at least one contact",
      })
      .max(MAX_BROADCAST_CONTACTS, `At most ${formatCount(MAX_BROADCAST_CONTACTS)} contacts per broadcast`)
      .optional(),
    /** A saved segment instead of picked contacts (decision 075): its contacts are read when the broadcast is due. */
    segmentId: zodId("segmentId must be a segment's id").optional(),
    scheduledAt: z
      .union([
        z.string().datetime({ offset: true, message: "scheduledAt must be an ISO 8601 date-time" }),
        z.literal(""),
        z.null(),
      ])
      .optional(),
  })
  .superRefine((b, ctx) => {
    if (b.segmentId === undefined && !b.contactIds?.length)
      ctx.addIssue({ code: "custom", path: ["contactIds"], message: "Please select at least one contact" });
    if (b.segmentId !== undefined && b.contactIds?.length)
      ctx.addIssue({ code: "custom", path: ["contactIds"], message: "Choose picked contacts or a segment, not both" });
  });

/**
 * A broadcast: one row per selected contact, keyed `bcast:{id}:{contact}`, written with INSERT … SELECT from
 * the contacts table (ids as one JSON parameter per chunk) — the broadcast row, every chunk and the count in
 * ONE D1 batch, so a failure leaves nothing behind. An Idempotency-Key makes a client's retry return the same
 * broadcast instead of texting everyone twice. Rows for a future `scheduledAt` wait in D1 until the cron
 * enqueues them (queue delays cap at 24 h).
 */
export async function sendBroadcast(
  deps: SendRequestDeps,
  input: z.infer<typeof broadcastSchema>,
  actor: Actor,
  key: string = crypto.randomUUID(),
  /** After a pre-send check: leave out the recipients it listed as missing a variable, as it promised. */
  opts: { skipMissingVariables?: boolean } = {},
) {
  const { db, queue, now } = deps;
  if (input.type === "email" && !input.subject) throw new AppError("validation", "Please enter a subject");
  assertKnownVariables(input.subject, input.content);
  const idempotencyKey = `${actor.userId}:${key}`;
  const byKey = eq(broadcasts.idempotencyKey, idempotencyKey);
  const existing = await db
    .select({ id: broadcasts.id, recipientCount: broadcasts.recipientCount, scheduledAt: broadcasts.scheduledAt })
    .from(broadcasts)
    .where(byKey)
    .get();
  if (existing) {
    return {
      broadcastId: existing.id,
      recipients: existing.recipientCount,
      queued: 0,
      scheduledAt: existing.scheduledAt ? existing.scheduledAt.toISOString() : null,
      replayed: true,
    };
  }
  const subjectPart = input.type === "email" ? input.subject : null;
  if (input.segmentId !== undefined) return sendSegmentBroadcast(deps, input, input.segmentId, actor, idempotencyKey);
  const picked = input.contactIds ?? [];
  const ids = opts.skipMissingVariables
    ? await contactsWithVariables(db, picked, subjectPart, input.content)
    : [...new Set(picked)];
  if (ids.length === 0)
    throw new AppError(
      "validation",
      "Every selected contact lacks a value the message needs; fill them in or add fallbacks such as {{firstName|there}}",
    );
  await assertVariablesFilled(db, actor.userId, { channel: input.type, contactIds: ids }, subjectPart, input.content);
  const t = now.getTime();
  const scheduledAt = input.scheduledAt ? new Date(input.scheduledAt) : null;
  const at = Math.max(scheduledAt?.getTime() ?? t, t);
  const subject = input.type === "email" ? (input.subject ?? null) : null;
  const bid = sql`${db.select({ id: broadcasts.id }).from(broadcasts).where(byKey)}`;
  // Small broadcasts due now start at once: their rows are written `queued` (no pending → queued write, issue 22)
  // and queued after the commit; big ones wait `pending` for the cron's chunks (a request may only make so many
  // queue sends), as do scheduled ones.
  const immediate = at <= t && ids.length <= IMMEDIATE_BROADCAST_LIMIT;
  // The rows by their idempotency keys (the unique index): the broadcast index leaves out queued rows.
  // (A bound JS number reaches SQLite as a REAL, which would spell the key `bcast:1.0:…`: the id goes as text.)
  const rowsOf = (b: SQL | number) =>
    sql`${messages.idempotencyKey} IN (SELECT 'bcast:' || ${typeof b === "number" ? String(b) : b} || ':' || value FROM json_each(${JSON.stringify(ids)}))`;
  const statements: unknown[] = [
    db.insert(broadcasts).values({
      type: input.type,
      subject,
      content: input.content,
      recipientCount: 0,
      scheduledAt,
      createdBy: actor.userId,
      idempotencyKey,
      createdAt: now,
    }),
  ];
  const row = { type: input.type, subject, content: input.content, at, createdBy: actor.userId, t };
  for (let i = 0; i < ids.length; i += 5000) {
    statements.push(
      insertBroadcastMessages(
        db,
        { ...row, bid, status: immediate ? "queued" : "pending" },
        sql`c.id IN (SELECT value FROM json_each(${JSON.stringify(ids.slice(i, i + 5000))}))`,
      ),
    );
  }
  statements.push(
    db
      .update(broadcasts)
      .set({ recipientCount: sql`${db.select({ n: count() }).from(messages).where(rowsOf(bid))}` })
      .where(eq(broadcasts.id, bid)),
  );
  try {
    await runBatch(db, statements);
  } catch (err) {
    if (isUniqueViolation(err, "broadcasts.idempotency_key")) return sendBroadcast(deps, input, actor, key, opts);
    throw err;
  }
  const b = (await db
    .select({ id: broadcasts.id, recipientCount: broadcasts.recipientCount })
    .from(broadcasts)
    .where(byKey)
    .get())!;
  if (b.recipientCount === 0) {
    await db.delete(broadcasts).where(eq(broadcasts.id, b.id));
    throw new AppError(
      "validation",
      input.type === "email"
        ? "None of the selected contacts has an email address"
        : "None of the selected contacts exists",
    );
  }
  let queued = 0;
  if (immediate) {
    const rows = await db
      .select({ id: messages.id })
      .from(messages)
      .where(and(rowsOf(b.id), sql`+${messages.status} = 'queued'`));
    await sendJobs(
      queue,
      rows.map((r) => r.id),
    );
    queued = rows.length;
  }
  await logSend(db, actor, now, {
    type: "broadcast",
    broadcastId: b.id,
    channel: input.type,
    recipients: b.recipientCount,
    scheduledAt: scheduledAt?.toISOString() ?? null,
  });
  return {
    broadcastId: b.id,
    recipients: b.recipientCount,
    queued,
    scheduledAt: at > t ? new Date(at).toISOString() : null,
    ...(input.type === "sms"
      ? { segments: smsSegments(renderTemplate(input.content, exampleValues()).text).segments }
      : {}),
  };
}

/**
 * A broadcast to a saved segment (decision 075): the row is written now with the segment and its time; the segment's
 * contacts are read when it is due — at once for "now" (as far as this request's budget goes), else by the tick
 * (resolveDueSegmentBroadcasts) — so who gets it is who fits the segment then. Sender and organisation variables are
 * checked now; a contact lacking a contact variable is left out when the segment is read.
 */
async function sendSegmentBroadcast(
  deps: SendRequestDeps,
  input: z.infer<typeof broadcastSchema>,
  segmentId: number,
  actor: Actor,
  idempotencyKey: string,
) {
  const { db, now } = deps;
  const subject = input.type === "email" ? (input.subject ?? null) : null;
  const exists = await db.select({ id: segments.id }).from(segments).where(eq(segments.id, segmentId)).get();
  if (!exists) throw new AppError("validation", "Choose one of the team's segments", { field: "segmentId" });
  await assertVariablesFilled(db, actor.userId, { channel: input.type, segment: true }, subject, input.content);
  const t = now.getTime();
  const scheduledAt = input.scheduledAt ? new Date(input.scheduledAt) : null;
  const at = Math.max(scheduledAt?.getTime() ?? t, t);
  try {
    await db.insert(broadcasts).values({
      type: input.type,
      subject,
      content: input.content,
      recipientCount: 0,
      scheduledAt: new Date(at),
      segmentId,
      createdBy: actor.userId,
      idempotencyKey,
      createdAt: now,
    });
  } catch (err) {
    if (!isUniqueViolation(err, "broadcasts.idempotency_key")) throw err;
  }
  const b = (await db
    .select({ id: broadcasts.id })
    .from(broadcasts)
    .where(eq(broadcasts.idempotencyKey, idempotencyKey))
    .get())!;
  let queued = 0;
  if (at <= t) {
    await resolveDueSegmentBroadcasts(deps, { only: b.id, budgetMs: 5000 });
    queued = await dispatchDueMessages(db, deps.queue, now, IMMEDIATE_BROADCAST_LIMIT);
  }
  const done = await db
    .select({ recipientCount: broadcasts.recipientCount, resolvedAt: broadcasts.resolvedAt })
    .from(broadcasts)
    .where(eq(broadcasts.id, b.id))
    .get();
  await logSend(db, actor, now, {
    type: "broadcast",
    broadcastId: b.id,
    channel: input.type,
    segmentId,
    recipients: done?.recipientCount ?? 0,
    scheduledAt: scheduledAt?.toISOString() ?? null,
  });
  return {
    broadcastId: b.id,
    recipients: done?.recipientCount ?? 0,
    queued,
    scheduledAt: at > t ? new Date(at).toISOString() : null,
    segmentId,
    /** False while the segment is still being read (a large one continues at the next tick). */
    resolved: done?.resolvedAt != null,
    ...(input.type === "sms"
      ? { segments: smsSegments(renderTemplate(input.content, exampleValues()).text).segments }
      : {}),
  };
}
