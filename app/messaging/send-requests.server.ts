import { sql } from "drizzle-orm";
import { z } from "zod";
import { activityRow } from "~/activity/log-activity.server";
import { normalizePhone } from "~/contacts/phone";
import type { Db } from "~/db/client.server";
import { activityLog, broadcasts } from "~/db/schema";
import { createOutboundMessages, enqueueDueMessages, type JobQueue } from "./queue-messages.server";
import { findUnknownVariables } from "./render";

export class SendRequestError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

export type Actor = { userId: number; ipAddress: string | null };
type Deps = { db: Db; queue: JobQueue; now: Date };

const text = (message: string) =>
  z.preprocess((v) => (typeof v === "string" ? v.trim() : v), z.string({ required_error: message, invalid_type_error: message }).min(1, message));
const MAX_CONTENT = 5000;

/** Unknown {{tokens}} are refused before anything is sent. */
function assertKnownVariables(...parts: (string | null | undefined)[]) {
  const unknown = parts.flatMap((p) => (p ? findUnknownVariables(p) : []));
  if (unknown.length) throw new SendRequestError(400, `Unknown variable${unknown.length > 1 ? "s" : ""}: ${unknown.map((u) => `{{${u}}}`).join(", ")}`);
}

function parse<S extends z.ZodTypeAny>(schema: S, body: unknown, fallback: string): z.infer<S> {
  const r = schema.safeParse(body ?? {});
  if (!r.success) throw new SendRequestError(400, r.error.issues[0]?.message ?? fallback);
  return r.data;
}

async function contactIdByPhone(db: Db, phone: string) {
  return (await db.get<{ id: number }>(sql`SELECT id FROM contacts WHERE phone = ${phone}`))?.id ?? null;
}

async function logSend(db: Db, actor: Actor, now: Date, details: Record<string, unknown>) {
  await db.insert(activityLog).values(activityRow("send_message", { userId: actor.userId, ipAddress: actor.ipAddress, now, details }));
}

async function messageSummary(db: Db, ids: number[]) {
  if (ids.length === 0) return [];
  return db.all<{ id: number; status: string; phone: string | null; email: string | null }>(
    sql`SELECT id, status, phone, email FROM messages WHERE id IN (SELECT value FROM json_each(${JSON.stringify(ids)}))`,
  );
}

export const manualSmsSchema = z.object(
  {
    phone: text("Please enter phone number and message"),
    message: text("Please enter phone number and message").pipe(z.string().max(MAX_CONTENT, `Message must be at most ${MAX_CONTENT} characters`)),
  },
  { invalid_type_error: "Invalid data format for manual test" },
);

/** Manual one-to-one test: exempt from quiet hours (and marked as a test), never from opt-outs. */
export async function sendManualSmsTest({ db, queue, now }: Deps, body: unknown, actor: Actor, key: string = crypto.randomUUID()) {
  const input = parse(manualSmsSchema, body, "Please enter phone number and message");
  assertKnownVariables(input.message);
  const phone = normalizePhone(input.phone);
  const [id] = await createOutboundMessages(
    db,
    queue,
    [{ channel: "sms", kind: "test", phone, contactId: await contactIdByPhone(db, phone), content: input.message, idempotencyKey: `test:${key}`, createdBy: actor.userId }],
    now,
  );
  await logSend(db, actor, now, { type: "manual-sms", to: phone, messageId: id });
  return (await messageSummary(db, id ? [id] : []))[0] ?? null;
}

export const manualEmailSchema = z.object(
  {
    email: text("Please enter email, subject, and content").pipe(z.string().email("Please enter a valid email address")),
    subject: text("Please enter email, subject, and content").pipe(z.string().max(300, "Subject must be at most 300 characters")),
    content: text("Please enter email, subject, and content").pipe(z.string().max(50_000, "Content is too long")),
  },
  { invalid_type_error: "Invalid data format for manual test" },
);

export async function sendManualEmailTest({ db, queue, now }: Deps, body: unknown, actor: Actor, key: string = crypto.randomUUID()) {
  const input = parse(manualEmailSchema, body, "Please enter email, subject, and content");
  assertKnownVariables(input.subject, input.content);
  const email = input.email.toLowerCase();
  const contact = await db.get<{ id: number }>(sql`SELECT id FROM contacts WHERE email = ${email} LIMIT 1`);
  const [id] = await createOutboundMessages(
    db,
    queue,
    [{ channel: "email", kind: "test", email, contactId: contact?.id ?? null, subject: input.subject, content: input.content, idempotencyKey: `test:${key}`, createdBy: actor.userId }],
    now,
  );
  await logSend(db, actor, now, { type: "manual-email", to: email, messageId: id });
  return (await messageSummary(db, id ? [id] : []))[0] ?? null;
}

export const quickSendSchema = z.object({
  to: text("Phone number (to) is required"),
  message: text("Message required").pipe(z.string().max(MAX_CONTENT, `Message must be at most ${MAX_CONTENT} characters`)),
});

/** Quick upload & send: one call per contact, already personalised by the client (#FIRST_NAME# etc.). */
export async function sendQuick({ db, queue, now }: Deps, body: unknown, actor: Actor, key: string = crypto.randomUUID()) {
  const input = parse(quickSendSchema, body, "Message required");
  assertKnownVariables(input.message);
  const phone = normalizePhone(input.to);
  const [id] = await createOutboundMessages(
    db,
    queue,
    [{ channel: "sms", kind: "quick", phone, contactId: await contactIdByPhone(db, phone), content: input.message, idempotencyKey: `quick:${actor.userId}:${key}`, createdBy: actor.userId }],
    now,
  );
  await logSend(db, actor, now, { type: "quick", to: phone, messageId: id });
  return (await messageSummary(db, id ? [id] : []))[0] ?? null;
}

export const individualSchema = z.object({
  contactId: z.coerce.number({ invalid_type_error: "contactId is required" }).int().positive("contactId is required"),
  type: z.enum(["sms", "email"]).default("sms"),
  subject: z.string().trim().max(300).optional().nullable(),
  message: text("Please enter message content").pipe(z.string().max(50_000, "Message is too long")),
});

export async function sendIndividual({ db, queue, now }: Deps, body: unknown, actor: Actor, key: string = crypto.randomUUID()) {
  const input = parse(individualSchema, body, "Please enter message content");
  if (input.type === "email" && !input.subject) throw new SendRequestError(400, "Please enter a subject");
  assertKnownVariables(input.subject, input.message);
  const contact = await db.get<{ id: number; phone: string; email: string | null }>(sql`SELECT id, phone, email FROM contacts WHERE id = ${input.contactId}`);
  if (!contact) throw new SendRequestError(404, "Contact not found");
  if (input.type === "email" && !contact.email) throw new SendRequestError(400, "This contact has no email address");
  const [id] = await createOutboundMessages(
    db,
    queue,
    [
      {
        channel: input.type,
        kind: "individual",
        contactId: contact.id,
        phone: contact.phone,
        email: contact.email,
        subject: input.subject ?? null,
        content: input.message,
        idempotencyKey: `ind:${actor.userId}:${key}`,
        createdBy: actor.userId,
      },
    ],
    now,
  );
  await logSend(db, actor, now, { type: "individual", contactId: contact.id, messageId: id });
  return (await messageSummary(db, id ? [id] : []))[0] ?? null;
}

export const MAX_BROADCAST_CONTACTS = 100_000;
const IMMEDIATE_BROADCAST_LIMIT = 1000;
export const broadcastSchema = z.object({
  type: z.enum(["sms", "email"], { errorMap: () => ({ message: "type must be sms or email" }) }).default("sms"),
  subject: z.string().trim().max(300).optional().nullable(),
  content: text("Please enter message content").pipe(z.string().max(50_000, "Message is too long")),
  contactIds: z
    .array(z.coerce.number().int().positive(), { required_error: "Please select at least one contact", invalid_type_error: "Please select at least one contact" })
    .min(1, "Please select at least one contact")
    .max(MAX_BROADCAST_CONTACTS, `At most ${MAX_BROADCAST_CONTACTS.toLocaleString("en-US")} contacts per broadcast`),
  scheduledAt: z
    .union([z.string().datetime({ offset: true, message: "scheduledAt must be an ISO 8601 date-time" }), z.literal(""), z.null()])
    .optional(),
});

/**
 * A broadcast: one row per selected contact, keyed `bcast:{id}:{contact}`, written with INSERT … SELECT from
 * the contacts table (chunks of ids as one JSON parameter). Rows for a future `scheduledAt` wait in D1 until
 * the cron enqueues them (queue delays cap at 24 h).
 */
export async function sendBroadcast({ db, queue, now }: Deps, body: unknown, actor: Actor) {
  const input = parse(broadcastSchema, body, "Please enter message content");
  if (input.type === "email" && !input.subject) throw new SendRequestError(400, "Please enter a subject");
  assertKnownVariables(input.subject, input.content);
  const scheduledAt = input.scheduledAt ? new Date(input.scheduledAt) : null;
  const at = Math.max(scheduledAt?.getTime() ?? now.getTime(), now.getTime());
  const ids = [...new Set(input.contactIds)];
  const [b] = await db
    .insert(broadcasts)
    .values({ type: input.type, subject: input.type === "email" ? input.subject : null, content: input.content, scheduledAt, createdBy: actor.userId, createdAt: now })
    .returning();
  const t = now.getTime();
  let created = 0;
  const createdIds: number[] = [];
  for (let i = 0; i < ids.length; i += 5000) {
    const rows = await db.all<{ id: number }>(sql`
      INSERT INTO messages (channel, direction, kind, status, contact_id, broadcast_id, phone, email, subject, content, idempotency_key,
        is_marketing, is_test, scheduled_at, attempts, created_by, created_at, updated_at)
      SELECT ${input.type}, 'outbound', 'broadcast', 'pending', c.id, ${b.id}, c.phone, c.email, ${b.subject}, ${input.content},
        'bcast:' || ${b.id} || ':' || c.id, 1, 0, ${at}, 0, ${actor.userId}, ${t}, ${t}
      FROM contacts c WHERE c.id IN (SELECT value FROM json_each(${JSON.stringify(ids.slice(i, i + 5000))}))
        ${input.type === "email" ? sql`AND c.email IS NOT NULL` : sql``}
      ON CONFLICT(idempotency_key) DO NOTHING
      RETURNING id`);
    created += rows.length;
    if (!scheduledAt || at <= t) createdIds.push(...rows.map((r) => r.id));
  }
  if (created === 0) {
    await db.delete(broadcasts).where(sql`id = ${b.id}`);
    throw new SendRequestError(400, input.type === "email" ? "None of the selected contacts has an email address" : "None of the selected contacts exists");
  }
  await db.run(sql`UPDATE broadcasts SET recipient_count = ${created} WHERE id = ${b.id}`);
  // Small broadcasts start at once; big ones are picked up by the next cron tick in chunks (a request may
  // only make so many queue sends).
  const queued = createdIds.length <= IMMEDIATE_BROADCAST_LIMIT ? await enqueueDueMessages(db, queue, now, createdIds) : 0;
  await logSend(db, actor, now, { type: "broadcast", broadcastId: b.id, channel: input.type, recipients: created, scheduledAt: scheduledAt?.toISOString() ?? null });
  return { broadcastId: b.id, recipients: created, queued, scheduledAt: scheduledAt && at > t ? new Date(at).toISOString() : null };
}
