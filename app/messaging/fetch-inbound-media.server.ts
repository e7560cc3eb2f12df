import { and, asc, eq, inArray, isNull, sql } from "drizzle-orm";
import { inJson } from "~/db/bulk-update.server";
import type { Db } from "~/db/client.server";
import { contacts, messageMedia, messages } from "~/db/schema";
import type { JobOutcomes } from "~/lib/job-queue";
import { readCapped } from "~/lib/read-capped";
import { ProviderError, type SmsProvider } from "./providers/provider";

/** What a lead may text in and Helio keeps: pictures (a bill, a roof, a meter) and PDFs — never anything that runs. */
export const MEDIA_TYPES: ReadonlySet<string> = new Set([
  "image/jpeg",
  "image/png",
  "image/gif",
  "image/webp",
  "image/heic",
  "image/heif",
  "application/pdf",
]);
/** Twilio accepts up to 5 MB per MMS; a larger body is not what it said it was. */
export const MAX_MEDIA_BYTES = 5 * 1024 * 1024;
/** Files a message may carry (Twilio's NumMedia is at most 10). */
export const MAX_MEDIA_PER_MESSAGE = 10;

export type MediaBucket = Pick<R2Bucket, "put" | "get">;
export type MediaDeps = {
  db: Db;
  bucket: MediaBucket;
  sms: () => SmsProvider;
  now: Date;
  /** Told of a message whose picture is its contact's first (decision 057): the root tells the owner. */
  billReceived?: (messageId: number) => Promise<unknown>;
};

const mediaType = (raw: string | null) => (raw ?? "").split(";")[0].trim().toLowerCase();

/**
 * The `inbound-media` job (decision 057): each pending file of these messages is fetched from Twilio with the
 * account's credentials — only this account's media URLs (the provider refuses any other) — checked (a picture or
 * a PDF, at most 5 MB, by the type Twilio declared and the one it served) and put in R2 under
 * `media/{messageId}/{position}`; the row says stored, refused or failed, with why. A network error or a 5xx leaves
 * the row pending and asks the queue to retry the job; a redelivered job finds nothing pending and does nothing.
 */
export async function fetchInboundMedia(deps: MediaDeps, messageIds: number[]): Promise<JobOutcomes> {
  const outcomes: JobOutcomes = new Map();
  if (!messageIds.length) return outcomes;
  const pending = await deps.db
    .select()
    .from(messageMedia)
    .where(and(inJson(messageMedia.messageId, messageIds), eq(messageMedia.status, "pending")))
    .orderBy(asc(messageMedia.messageId), asc(messageMedia.position));
  const sms = pending.length ? deps.sms() : null;
  for (const m of pending) {
    const settle = (set: Partial<typeof messageMedia.$inferInsert>) =>
      deps.db
        .update(messageMedia)
        .set({ ...set, updatedAt: deps.now })
        .where(and(eq(messageMedia.id, m.id), inArray(messageMedia.status, ["pending"])));
    if (!MEDIA_TYPES.has(mediaType(m.contentType))) {
      await settle({
        status: "refused",
        error: `Not kept: ${m.contentType || "unknown type"} (pictures and PDFs only)`,
      });
      continue;
    }
    if (!sms?.fetchMedia) {
      await settle({ status: "failed", error: "Media can be fetched only with Twilio credentials set" });
      continue;
    }
    let res: Response;
    try {
      res = await sms.fetchMedia(m.sourceUrl);
    } catch (err) {
      if (err instanceof ProviderError && err.kind === "permanent") {
        await settle({ status: "failed", error: err.message.slice(0, 300) });
        continue;
      }
      outcomes.set(m.messageId, { retryAfterSeconds: 60 });
      continue;
    }
    const served = mediaType(res.headers.get("Content-Type")) || mediaType(m.contentType);
    if (!MEDIA_TYPES.has(served)) {
      await res.body?.cancel();
      await settle({ status: "refused", error: `Not kept: served as ${served || "unknown type"}` });
      continue;
    }
    const body = await readCapped(res, MAX_MEDIA_BYTES);
    if (!body) {
      await settle({ status: "refused", error: "Not kept: larger than 5 MB" });
      continue;
    }
    const key = `media/${m.messageId}/${m.position}`;
    await deps.bucket.put(key, body, { httpMetadata: { contentType: served } });
    await settle({ status: "stored", r2Key: key, sizeBytes: body.byteLength, contentType: served });
    // A picture from a lead is, in a solar sale, the utility bill the proposal starts from: the contact page says so.
    if (served.startsWith("image/")) {
      const first = await deps.db
        .update(contacts)
        .set({ billReceivedAt: deps.now })
        .where(
          and(
            eq(contacts.id, sql`(SELECT ${messages.contactId} FROM ${messages} WHERE ${messages.id} = ${m.messageId})`),
            isNull(contacts.billReceivedAt),
          ),
        )
        .returning({ id: contacts.id });
      if (first.length) await deps.billReceived?.(m.messageId);
    }
  }
  return outcomes;
}
