import { sql } from "drizzle-orm";
import { z } from "zod";
import { activityRow } from "~/activity/log-activity.server";
import { assessPhone, normalizePhone } from "~/contacts/phone";
import type { Db } from "~/db/client.server";
import { activityLog } from "~/db/schema";
import { AppError } from "~/lib/app-error";
import type { JobQueue } from "~/lib/job-queue";
import { extractVariables, findUnknownVariables, renderTemplate } from "./render";
import { smsSegments } from "./segments";
import { exampleValues } from "./variables";

// The checks and bookkeeping every send request shares (the routes parse the body with each request's schema).

export type Actor = { userId: number; ipAddress: string | null };
/** What every send request needs: the database, the queue and the request's time. */
export type SendRequestDeps = { db: Db; queue: JobQueue; now: Date };

/** A required, trimmed text field whose every failure reads `message`. */
export const text = (message: string) =>
  z.preprocess((v) => (typeof v === "string" ? v.trim() : v), z.string({ required_error: message, invalid_type_error: message }).min(1, message));
export const MAX_CONTENT = 5000;

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
export function assertKnownVariables(...parts: (string | null | undefined)[]) {
  const unknown = parts.flatMap((p) => (p ? findUnknownVariables(p) : []));
  if (unknown.length) throw new AppError("validation", `Unknown variable${unknown.length > 1 ? "s" : ""}: ${unknown.map((u) => `{{${u}}}`).join(", ")}`);
  const unsourced = [...new Set(parts.flatMap((p) => (p ? extractVariables(p) : [])).filter((v) => !SOURCED_VARIABLES.has(v)))];
  if (unsourced.length) {
    throw new AppError("validation", `No value is available yet for ${unsourced.map((u) => `{{${u}}}`).join(", ")}; remove ${unsourced.length > 1 ? "them" : "it"} or type the text in`);
  }
}

/** A number we would refuse to text is refused here, with the reason, before anything is written. */
export function sendablePhone(input: string) {
  const phone = normalizePhone(input);
  const check = assessPhone(phone);
  if (!check.sendable) throw new AppError("validation", check.reason);
  return phone;
}

/** The SMS encoding and segment count the client is told (rendered with example values). */
export const smsInfo = (content: string) => {
  const seg = smsSegments(renderTemplate(content, exampleValues()).text);
  return { encoding: seg.encoding, segments: seg.segments };
};

export async function contactIdByPhone(db: Db, phone: string) {
  return (await db.get<{ id: number }>(sql`SELECT id FROM contacts WHERE phone = ${phone}`))?.id ?? null;
}

export async function logSend(db: Db, actor: Actor, now: Date, details: Record<string, unknown>) {
  await db.insert(activityLog).values(activityRow("send_message", { userId: actor.userId, ipAddress: actor.ipAddress, now, details }));
}

/** The message for a send key — the one just written, or the earlier one when a client retried with the same key. */
export async function messageByKey(db: Db, idempotencyKey: string) {
  return db.get<{ id: number; status: string; phone: string | null; email: string | null }>(
    sql`SELECT id, status, phone, email FROM messages WHERE idempotency_key = ${idempotencyKey}`,
  );
}
