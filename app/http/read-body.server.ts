import { MAX_PICTURE_BYTES, PICTURE_SIZE_ERROR } from "~/messaging/outbound-pictures.server";
import { readCapped } from "~/lib/read-capped";
import { MAX_UPLOAD_BYTES, UPLOAD_TOO_LARGE } from "~/contacts/upload-limits";
import { AppError } from "~/lib/app-error";

/** JSON request bodies are small: the largest legitimate one (a 10,000-contact bulk import) gets its own cap. */
export const MAX_JSON_BYTES = 1024 * 1024;

/** /api/contacts/bulk: up to 10,000 contacts at the schema's field limits (~1.1 KB each at most). */
export const MAX_BULK_JSON_BYTES = 12 * 1024 * 1024;

/** /api/v1/leads: up to MAX_LEADS_PER_POST (100) leads with their consent text (~2.5 KB each at most). */
export const MAX_LEADS_BODY_BYTES = 256 * 1024;

/** `application/json`, optionally with parameters (`; charset=utf-8`) — nothing else, wherever "json" appears. */
export function isJsonContentType(header: string | null): boolean {
  return /^\s*application\/json\s*(;.*)?$/i.test(header ?? "");
}

/**
 * Reads a request body, stopping as soon as it passes `maxBytes` (413 `payload_too_large` with `message`).
 * Content-Length only lets an honest oversized request fail before any read; it is never trusted otherwise.
 */
export async function readBodyLimited(
  request: Request,
  maxBytes: number,
  message: string,
): Promise<Uint8Array<ArrayBuffer>> {
  const body = await readCapped(request, maxBytes);
  if (!body) throw new AppError("payload_too_large", message);
  return body;
}

/** `request.formData()` that stops reading past `maxBytes` (the multipart framing counts towards it). */
export async function readFormDataLimited(request: Request, maxBytes: number, message: string): Promise<FormData> {
  const type = request.headers.get("Content-Type") ?? "";
  // Anything but a form (a script posting JSON, or no type at all) is the client's mistake, not a 500.
  if (!/^(multipart\/form-data|application\/x-www-form-urlencoded)\b/i.test(type))
    throw new AppError("unsupported_media_type", "The upload must be sent as a form (multipart/form-data)");
  const body = await readBodyLimited(request, maxBytes, message);
  try {
    return await new Request(request.url, { method: "POST", headers: request.headers, body }).formData();
  } catch {
    throw new AppError("validation", "The form could not be read; please choose the file again");
  }
}

// ---------------------------------------------------------------------------------------------------------------
// Every request body, before any route reads it (workers/handle-request.ts): one cap per kind of path (issue 23).

/** Screen actions and /api JSON: the largest legitimate form is a 50,000-character email step (≤ ~450 KB encoded). */
export const MAX_REQUEST_BYTES = MAX_JSON_BYTES;
/** Sign-in, unsubscribe: two short fields. */
export const MAX_SMALL_FORM_BYTES = 16 * 1024;
/** Twilio's callbacks: a 1,600-character SMS with its parameters is ~10 KB. */
export const MAX_WEBHOOK_BYTES = 64 * 1024;
/** The uploads: their routes cap the file at MAX_UPLOAD_BYTES plus the multipart framing; this is the backstop above it. */
export const MAX_UPLOAD_BODY_BYTES = MAX_UPLOAD_BYTES + 128 * 1024;

const UPLOAD_PATHS = new Set(["/contacts/upload", "/contacts/quick-send"]);
/** A reply with a picture (MMS, decision 076): the picture's cap plus the form's fields and framing. */
export const MAX_PICTURE_FORM_BYTES = MAX_PICTURE_BYTES + 64 * 1024;
/** The screens whose forms take a picture: the two conversation screens' reply box, a campaign's steps. */
const PICTURE_PATHS = /^\/(contacts\/\d{1,15}|messages\/conversations\/[^/]{1,40}|campaigns\/\d{1,15}\/steps)$/;

const sizeText = (bytes: number) =>
  bytes >= 1024 * 1024 ? `${+(bytes / 1024 / 1024).toFixed(1)} MB` : `${Math.round(bytes / 1024)} KB`;
export const bodyTooLarge = (maxBytes: number) => `Request body too large (maximum ${sizeText(maxBytes)})`;

export type BodyLimit = { maxBytes: number; message: string };
const limit = (maxBytes: number, message = bodyTooLarge(maxBytes)): BodyLimit => ({ maxBytes, message });

/** The most bytes a request to `pathname` may send, and what to say past it. */
export function requestBodyLimit(pathname: string): BodyLimit {
  if (UPLOAD_PATHS.has(pathname)) return limit(MAX_UPLOAD_BODY_BYTES, UPLOAD_TOO_LARGE);
  if (PICTURE_PATHS.test(pathname)) return limit(MAX_PICTURE_FORM_BYTES, PICTURE_SIZE_ERROR);
  if (pathname === "/api/contacts/bulk") return limit(MAX_BULK_JSON_BYTES);
  if (pathname === "/api/v1/leads") return limit(MAX_LEADS_BODY_BYTES);
  if (pathname.startsWith("/webhooks/")) return limit(MAX_WEBHOOK_BYTES);
  if (
    pathname === "/login" ||
    pathname === "/api/auth/login" ||
    pathname.startsWith("/unsubscribe/") ||
    pathname.startsWith("/book/")
  )
    return limit(MAX_SMALL_FORM_BYTES);
  return limit(MAX_REQUEST_BYTES);
}

/**
 * `request` with its body capped at `maxBytes`: refused at once (an AppError 413) when Content-Length says more, and
 * otherwise counted as it streams (chunked bodies have no Content-Length), the stream erroring the moment it passes
 * the cap — nothing is buffered here. `tripped()` tells the caller afterwards that the cap was hit, whatever the
 * route made of the broken stream.
 */
export function limitRequestBody(
  request: Request,
  { maxBytes, message }: BodyLimit,
): { request: Request; tripped: () => boolean } {
  const declared = Number(request.headers.get("Content-Length"));
  if (Number.isFinite(declared) && declared > maxBytes) throw new AppError("payload_too_large", message);
  if (!request.body) return { request, tripped: () => false };
  let seen = 0;
  let over = false;
  const counted = request.body.pipeThrough(
    new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, controller) {
        seen += chunk.byteLength;
        if (seen > maxBytes) {
          over = true;
          controller.error(new AppError("payload_too_large", message));
        } else controller.enqueue(chunk);
      },
    }),
  );
  return { request: new Request(request, { body: counted, duplex: "half" } as RequestInit), tripped: () => over };
}
