import type { z } from "zod";
import { isAppError } from "./app-error";
import { isJsonContentType, MAX_JSON_BYTES, readBodyLimited } from "./read-body.server";
import { apiError } from "./request.server";

/**
 * Reads a JSON body; a missing/invalid body is a 400, another content type a 415 and a body over `maxBytes`
 * (default 1 MB; read as a stream and stopped at the limit) a 413, each with a clear message.
 */
export async function readJson(request: Request, opts: { maxBytes?: number } = {}): Promise<unknown> {
  if (!isJsonContentType(request.headers.get("Content-Type"))) throw apiError(415, "Content-Type must be application/json");
  const maxBytes = opts.maxBytes ?? MAX_JSON_BYTES;
  let bytes: Uint8Array;
  try {
    bytes = await readBodyLimited(request, maxBytes, `Request body too large (maximum ${+(maxBytes / 1024 / 1024).toFixed(1)} MB)`);
  } catch (err) {
    if (isAppError(err)) throw apiError(err.status, err.message);
    throw err;
  }
  try {
    return JSON.parse(new TextDecoder().decode(bytes));
  } catch {
    throw apiError(400, "Request body must be valid JSON");
  }
}

/** Parses with zod; the first issue's message becomes the 400 `{ message }`. */
export async function parseJsonBody<S extends z.ZodTypeAny>(request: Request, schema: S): Promise<z.infer<S>> {
  const parsed = schema.safeParse(await readJson(request));
  if (!parsed.success) throw apiError(400, parsed.error.issues[0]?.message ?? "Invalid request body");
  return parsed.data;
}

export function methodNotAllowed(allowed: string[]) {
  return apiError(405, "Method not allowed", { Allow: allowed.join(", ") });
}
