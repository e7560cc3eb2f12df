import { AppError } from "./app-error";

/** JSON request bodies are small: the largest legitimate one (a 10,000-contact bulk import) gets its own cap. */
export const MAX_JSON_BYTES = 1024 * 1024;

/** /api/contacts/bulk: up to 10,000 contacts at the schema's field limits (~1.1 KB each at most). */
export const MAX_BULK_JSON_BYTES = 12 * 1024 * 1024;

/** `application/json`, optionally with parameters (`; charset=utf-8`) — nothing else, wherever "json" appears. */
export function isJsonContentType(header: string | null): boolean {
  return /^\s*application\/json\s*(;.*)?$/i.test(header ?? "");
}

/**
 * Reads a request body, stopping as soon as it passes `maxBytes` (413 `payload_too_large` with `message`).
 * Content-Length only lets an honest oversized request fail before any read; it is never trusted otherwise.
 */
export async function readBodyLimited(request: Request, maxBytes: number, message: string): Promise<Uint8Array<ArrayBuffer>> {
  const declared = Number(request.headers.get("Content-Length"));
  if (Number.isFinite(declared) && declared > maxBytes) throw new AppError("payload_too_large", message);
  if (!request.body) return new Uint8Array(0);
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > maxBytes) {
      await reader.cancel().catch(() => {});
      throw new AppError("payload_too_large", message);
    }
    chunks.push(value);
  }
  const out = new Uint8Array(size);
  let offset = 0;
  for (const c of chunks) {
    out.set(c, offset);
    offset += c.byteLength;
  }
  return out;
}

/** `request.formData()` that stops reading past `maxBytes` (the multipart framing counts towards it). */
export async function readFormDataLimited(request: Request, maxBytes: number, message: string): Promise<FormData> {
  const type = request.headers.get("Content-Type") ?? "";
  // Anything but a form (a script posting JSON, or no type at all) is the client's mistake, not a 500.
  if (!/^(multipart\/form-data|application\/x-www-form-urlencoded)\b/i.test(type)) throw new AppError("unsupported_media_type", "The upload must be sent as a form (multipart/form-data)");
  const body = await readBodyLimited(request, maxBytes, message);
  try {
    return await new Request(request.url, { method: "POST", headers: request.headers, body }).formData();
  } catch {
    throw new AppError("validation", "The form could not be read; please choose the file again");
  }
}
