import { eq } from "drizzle-orm";
import type { Db } from "~/db/client.server";
import { isPicture, messages, type MessageAttachment, type PictureAttachment } from "~/db/schema";
import { AppError } from "~/lib/app-error";
import { hmacSha256, timingSafeEqualString } from "~/lib/crypto.server";
import type { MediaBucket } from "./fetch-inbound-media.server";
import { ProviderError } from "./providers/provider";

/**
 * Pictures sent as MMS (issue 28 item 3, decision 076). What a picture may be: JPEG, PNG or GIF — the types every US
 * carrier shows and Twilio resizes — told by its first bytes, never by its name or the browser's word; at most 5 MB
 * (Twilio's limit for a message's media). Anything else, executables included, is refused before it is stored.
 */
export const PICTURE_TYPES = { "image/jpeg": "jpg", "image/png": "png", "image/gif": "gif" } as const;
export type PictureType = keyof typeof PICTURE_TYPES;
export const MAX_PICTURE_BYTES = 5 * 1024 * 1024;
export const PICTURE_TYPE_ERROR = "Attach a JPEG, PNG or GIF picture";
export const PICTURE_SIZE_ERROR = "A picture may be at most 5 MB";
export const PICTURE_NOT_FOUND = "Picture not found";

/** The picture's type from its magic bytes, or null. */
export function sniffPicture(head: Uint8Array): PictureType | null {
  const starts = (...b: number[]) => b.every((x, i) => head[i] === x);
  if (starts(0xff, 0xd8, 0xff)) return "image/jpeg";
  if (starts(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a)) return "image/png";
  if (starts(0x47, 0x49, 0x46, 0x38)) return "image/gif";
  return null;
}

/**
 * Checks an uploaded picture and stores it in R2 (`outbound/<uuid>.<ext>`), returning the attachment the message
 * carries. The size is checked before the bytes are read; the type from the bytes. `field` names the form's input.
 */
export async function storeOutboundPicture(
  bucket: MediaBucket,
  file: File,
  field = "picture",
): Promise<PictureAttachment> {
  if (file.size > MAX_PICTURE_BYTES) throw new AppError("payload_too_large", PICTURE_SIZE_ERROR, { field });
  const bytes = new Uint8Array(await file.arrayBuffer());
  if (bytes.byteLength > MAX_PICTURE_BYTES) throw new AppError("payload_too_large", PICTURE_SIZE_ERROR, { field });
  const type = sniffPicture(bytes.subarray(0, 16));
  if (!type) throw new AppError("unsupported_media_type", PICTURE_TYPE_ERROR, { field });
  const r2Key = `outbound/${crypto.randomUUID()}.${PICTURE_TYPES[type]}`;
  await bucket.put(r2Key, bytes, { httpMetadata: { contentType: type } });
  // The name is the person's file name, bounded and stripped of path and control characters (shown, never trusted).
  const filename =
    (file.name || "picture")
      .split(/[\\/]/)
      .pop()!
      .replace(/\p{Cc}/gu, "")
      .slice(0, 120) || "picture";
  return { filename, contentType: type, r2Key, sizeBytes: bytes.byteLength };
}

const signedPart = (messageId: number, index: number) => `mms:${messageId}:${index}`;

/** The public URL Twilio fetches a message's `index`th picture from: `/mms/<message>.<index>.<signature>`. */
export async function pictureUrl(base: string, secret: string, messageId: number, index: number) {
  return `${base}/mms/${messageId}.${index}.${await hmacSha256(secret, signedPart(messageId, index))}`;
}

/** The send's picture URLs (none for a text, and no key imported): what the consumer hands Twilio as MediaUrl. */
export async function pictureUrls(
  messageId: number,
  attachments: readonly MessageAttachment[] | null,
  config: { publicBaseUrl: string; linkSecret: string | null },
): Promise<string[]> {
  const pictures = (attachments ?? []).filter(isPicture);
  if (!pictures.length) return [];
  const secret = config.linkSecret;
  // Unsigned, anyone could walk every sent picture: a deployment without a secret sends none (said on the row).
  if (!secret)
    throw new ProviderError("permanent", "Pictures need SESSION_SECRET (or UNSUBSCRIBE_SECRET) to sign their links");
  return Promise.all(pictures.map((_, i) => pictureUrl(config.publicBaseUrl, secret, messageId, i)));
}

/**
 * GET /mms/:token — a sent picture for whoever holds its signed URL (Twilio, then the handset's carrier): the
 * signature over the message and position, the message by primary key, its picture from R2. A forged, unknown or
 * deleted one is the same 404.
 */
export async function readOutboundPicture(db: Db, bucket: MediaBucket, secret: string, token: string) {
  const m = /^(\d{1,15})\.(\d{1,2})\.([A-Za-z0-9_-]{43})$/.exec(token);
  if (!m) throw new AppError("not_found", PICTURE_NOT_FOUND);
  const [messageId, index] = [Number(m[1]), Number(m[2])];
  const expected = await hmacSha256(secret, signedPart(messageId, index));
  if (!timingSafeEqualString(expected, m[3])) throw new AppError("not_found", PICTURE_NOT_FOUND);
  const row = await db
    .select({ attachments: messages.attachments })
    .from(messages)
    .where(eq(messages.id, messageId))
    .get();
  const picture = (row?.attachments ?? []).filter(isPicture)[index];
  const object = picture ? await bucket.get(picture.r2Key) : null;
  if (!picture || !object) throw new AppError("not_found", PICTURE_NOT_FOUND);
  return { body: object.body, contentType: picture.contentType, size: picture.sizeBytes };
}
