import { sql } from "drizzle-orm";
import { z } from "zod";
import { activityRow } from "~/activity/log-activity.server";
import { normalizePhone } from "~/contacts/phone";
import type { Db } from "~/db/client.server";
import { activityLog } from "~/db/schema";
import { createOutboundMessages, enqueueDueMessages, type JobQueue } from "./create-outbound-messages.server";
import { extractVariables, findUnknownVariables, renderTemplate } from "./render";
import { smsSegments } from "./segments";
import { exampleValues } from "./variables";
import { runBatch } from "~/db/client.server";
import { assessPhone } from "~/contacts/phone";

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

/**
 * Platform variables the send path can fill today: the contact's own fields, the campaign's name and the
 * date/time. The others (sales rep, solar figures, appointment, promo…) have no data source yet, and a
 * message that silently drops them ("use code ") is worse than a clear refusal.
 */
export const SOURCED_VARIABLES: ReadonlySet<string> = new Set([
  "firstName", "lastName", "fullName", "email", "phone", "address", "city", "state", "zipCode", "company",
  "campaignName", "currentDate", "currentTime", "currentYear",
]);

/** Unknown {{tokens}}, and known ones nothing can fill, are refused before anything is written or sent. */
function assertKnownVariables(...parts: (string | null | undefined)[]) {
  const unknown = parts.flatMap((p) => (p ? findUnknownVariables(p) : []));
  if (unknown.length) throw new SendRequestError(400, `Unknown variable${unknown.length > 1 ? "s" : ""}: ${unknown.map((u) => `{{${u}}}`).join(", ")}`);
  const unsourced = [...new Set(parts.flatMap((p) => (p ? extractVariables(p) : [])).filter((v) => !SOURCED_VARIABLES.has(v)))];
  if (unsourced.length) {
    throw new SendRequestError(400, `No value is available yet for ${unsourced.map((u) => `{{${u}}}`).join(", ")}; remove ${unsourced.length > 1 ? "them" : "it"} or type the text in`);
  }
}

/** A number we would refuse to text is refused here, with the reason, before anything is written. */
function sendablePhone(input: string) {
  const phone = normalizePhone(input);
  const check = assessPhone(phone);
  if (!check.sendable) throw new SendRequestError(400, check.reason);
  return phone;
}

const smsInfo = (content: string) => {
  const seg = smsSegments(renderTemplate(content, exampleValues()).text);
  return { encoding: seg.encoding, segments: seg.segments };
};

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

/** The message for a send key — the one just written, or the earlier one when a client retried with the same key. */
async function messageByKey(db: Db, idempotencyKey: string) {
  return db.get<{ id: number; status: string; phone: string | null; email: string | null }>(
    sql`SELECT id, status, phone, email FROM messages WHERE idempotency_key = ${idempotencyKey}`,
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
  const phone = sendablePhone(input.phone);
  const [id] = await createOutboundMessages(
    db,
    queue,
    [{ channel: "sms", kind: "test", phone, contactId: await contactIdByPhone(db, phone), content: input.message, idempotencyKey: `test:${actor.userId}:${key}`, createdBy: actor.userId }],
    now,
  );
  await logSend(db, actor, now, { type: "manual-sms", to: phone, messageId: id });
  return { ...(await messageByKey(db, `test:${actor.userId}:${key}`)), ...smsInfo(input.message) };
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
    [{ channel: "email", kind: "test", email, contactId: contact?.id ?? null, subject: input.subject, content: input.content, idempotencyKey: `test:${actor.userId}:${key}`, createdBy: actor.userId }],
    now,
  );
  await logSend(db, actor, now, { type: "manual-email", to: email, messageId: id });
  return (await messageByKey(db, `test:${actor.userId}:${key}`)) ?? null;
}

export const quickSendSchema = z.object({
  to: text("Phone number (to) is required"),
  message: text("Message required").pipe(z.string().max(MAX_CONTENT, `Message must be at most ${MAX_CONTENT} characters`)),
});

/** Quick upload & send: one call per contact, already personalised by the client (#FIRST_NAME# etc.). */
export async function sendQuick({ db, queue, now }: Deps, body: unknown, actor: Actor, key: string = crypto.randomUUID()) {
  const input = parse(quickSendSchema, body, "Message required");
  assertKnownVariables(input.message);
  const phone = sendablePhone(input.to);
  const [id] = await createOutboundMessages(
    db,
    queue,
    [{ channel: "sms", kind: "quick", phone, contactId: await contactIdByPhone(db, phone), content: input.message, idempotencyKey: `quick:${actor.userId}:${key}`, createdBy: actor.userId }],
    now,
  );
  await logSend(db, actor, now, { type: "quick", to: phone, messageId: id });
  return { ...(await messageByKey(db, `quick:${actor.userId}:${key}`)), ...smsInfo(input.message) };
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
  return { ...(await messageByKey(db, `ind:${actor.userId}:${key}`)), ...(input.type === "sms" ? smsInfo(input.message) : {}) };
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
 * the contacts table (ids as one JSON parameter per chunk) — the broadcast row, every chunk and the count in
 * ONE D1 batch, so a failure leaves nothing behind. An Idempotency-Key makes a client's retry return the same
 * broadcast instead of texting everyone twice. Rows for a future `scheduledAt` wait in D1 until the cron
 * enqueues them (queue delays cap at 24 h).
 */
export async function sendBroadcast({ db, queue, now }: Deps, body: unknown, actor: Actor, key: string = crypto.randomUUID()) {
  const input = parse(broadcastSchema, body, "Please enter message content");
  if (input.type === "email" && !input.subject) throw new SendRequestError(400, "Please enter a subject");
  assertKnownVariables(input.subject, input.content);
  const idempotencyKey = `${actor.userId}:${key}`;
  const existing = await db.get<{ id: number; recipient_count: number; scheduled_at: number | null }>(
    sql`SELECT id, recipient_count, scheduled_at FROM broadcasts WHERE idempotency_key = ${idempotencyKey}`,
  );
  if (existing) {
    return { broadcastId: existing.id, recipients: existing.recipient_count, queued: 0, scheduledAt: existing.scheduled_at ? new Date(existing.scheduled_at).toISOString() : null, replayed: true };
  }
  const t = now.getTime();
  const scheduledAt = input.scheduledAt ? new Date(input.scheduledAt) : null;
  const at = Math.max(scheduledAt?.getTime() ?? t, t);
  const ids = [...new Set(input.contactIds)];
  const subject = input.type === "email" ? (input.subject ?? null) : null;
  const bid = sql`(SELECT id FROM broadcasts WHERE idempotency_key = ${idempotencyKey})`;
  const statements = [
    db.run(sql`INSERT INTO broadcasts (type, subject, content, recipient_count, scheduled_at, created_by, idempotency_key, created_at)
               VALUES (${input.type}, ${subject}, ${input.content}, 0, ${scheduledAt?.getTime() ?? null}, ${actor.userId}, ${idempotencyKey}, ${t})`),
  ];
  for (let i = 0; i < ids.length; i += 5000) {
    statements.push(
      db.run(sql`
        INSERT INTO messages (channel, direction, kind, status, contact_id, broadcast_id, phone, email, subject, content, idempotency_key,
          is_marketing, is_test, scheduled_at, attempts, created_by, created_at, updated_at)
        SELECT ${input.type}, 'outbound', 'broadcast', 'pending', c.id, ${bid}, c.phone, c.email, ${subject}, ${input.content},
          'bcast:' || ${bid} || ':' || c.id, 1, 0, ${at}, 0, ${actor.userId}, ${t}, ${t}
        FROM contacts c WHERE c.id IN (SELECT value FROM json_each(${JSON.stringify(ids.slice(i, i + 5000))}))
          ${input.type === "email" ? sql`AND c.email IS NOT NULL` : sql``}
        ON CONFLICT(idempotency_key) DO NOTHING`),
    );
  }
  statements.push(db.run(sql`UPDATE broadcasts SET recipient_count = (SELECT count(*) FROM messages WHERE broadcast_id = ${bid}) WHERE id = ${bid}`));
  try {
    await runBatch(db, statements);
  } catch (err) {
    if (/UNIQUE constraint failed: broadcasts\.idempotency_key/.test(String((err as Error)?.message))) return sendBroadcast({ db, queue, now }, body, actor, key);
    throw err;
  }
  const b = (await db.get<{ id: number; recipient_count: number }>(sql`SELECT id, recipient_count FROM broadcasts WHERE idempotency_key = ${idempotencyKey}`))!;
  if (b.recipient_count === 0) {
    await db.run(sql`DELETE FROM broadcasts WHERE id = ${b.id}`);
    throw new SendRequestError(400, input.type === "email" ? "None of the selected contacts has an email address" : "None of the selected contacts exists");
  }
  // Small broadcasts start at once; big ones are picked up by the next cron tick in chunks (a request may
  // only make so many queue sends).
  let queued = 0;
  if (at <= t && b.recipient_count <= IMMEDIATE_BROADCAST_LIMIT) {
    const rows = await db.all<{ id: number }>(sql`SELECT id FROM messages WHERE broadcast_id = ${b.id}`);
    queued = await enqueueDueMessages(db, queue, now, rows.map((r) => r.id));
  }
  await logSend(db, actor, now, { type: "broadcast", broadcastId: b.id, channel: input.type, recipients: b.recipient_count, scheduledAt: scheduledAt?.toISOString() ?? null });
  return {
    broadcastId: b.id,
    recipients: b.recipient_count,
    queued,
    scheduledAt: at > t ? new Date(at).toISOString() : null,
    ...(input.type === "sms" ? { segments: smsSegments(renderTemplate(input.content, exampleValues()).text).segments } : {}),
  };
}
