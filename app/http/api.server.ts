import { z } from "zod";
import { AppError } from "~/lib/app-error";
import { zodId } from "~/lib/ids";
import { isJsonContentType, MAX_JSON_BYTES, readBodyLimited } from "./read-body.server";

/**
 * Reads a JSON body; a missing/invalid body is a 400, another content type a 415 and a body over `maxBytes`
 * (default 1 MB; read as a stream and stopped at the limit) a 413, each a `{ message }` via apiRoute.
 */
export async function readJson(request: Request, opts: { maxBytes?: number } = {}): Promise<unknown> {
  if (!isJsonContentType(request.headers.get("Content-Type")))
    throw new AppError("unsupported_media_type", "Content-Type must be application/json");
  const maxBytes = opts.maxBytes ?? MAX_JSON_BYTES;
  const bytes = await readBodyLimited(
    request,
    maxBytes,
    `Request body too large (maximum ${+(maxBytes / 1024 / 1024).toFixed(1)} MB)`,
  );
  try {
    return JSON.parse(new TextDecoder().decode(bytes));
  } catch {
    throw new AppError("validation", "Request body must be valid JSON");
  }
}

/** Parses with zod; the first issue's message becomes a validation AppError (400 `{ message }`). */
export function parseInput<S extends z.ZodTypeAny>(
  schema: S,
  input: unknown,
  fallback = "Invalid request",
): z.infer<S> {
  const parsed = schema.safeParse(input);
  if (!parsed.success) throw new AppError("validation", parsed.error.issues[0]?.message ?? fallback);
  return parsed.data;
}

/** Reads and parses a JSON body in one step. */
export async function parseJsonBody<S extends z.ZodTypeAny>(request: Request, schema: S): Promise<z.infer<S>> {
  return parseInput(schema, await readJson(request), "Invalid request body");
}

/** The query string as a plain object, for zod. */
export function searchParamsOf(request: Request): Record<string, string> {
  return Object.fromEntries(new URL(request.url).searchParams);
}

/** A client's `Idempotency-Key` header (bounded), which makes its retries of a send safe. */
export function idempotencyKey(request: Request): string | undefined {
  return request.headers.get("Idempotency-Key")?.slice(0, 200) || undefined;
}

/** 405 with `Allow`; a route answers it after its guard, so an anonymous caller still gets 401 first. */
export function methodNotAllowed(allowed: string[]): Response {
  return Response.json({ message: "Method not allowed" }, { status: 405, headers: { Allow: allowed.join(", ") } });
}

/** `?limit&after` of a keyset-paged list API: limit 1…`max` (absent: the list's default), after an id; else 400. */
export function pageQuery(request: Request, max: number, item: string): { limit?: number; after?: number } {
  const schema = z.object({
    limit: z.coerce
      .number()
      .int("limit must be an integer")
      .min(1, "limit must be at least 1")
      .max(max, `limit must be at most ${max}`)
      .optional(),
    after: zodId(`after must be ${item} id`).optional(),
  });
  return parseInput(schema, searchParamsOf(request));
}

/** One page of a list API as JSON, never cached; `X-Next-Cursor` / `X-Prev-Cursor` when there is more that way. */
export function pageResponse(
  items: unknown,
  cursors: { nextCursor: number | null; prevCursor?: number | null },
): Response {
  const headers = new Headers({ "Cache-Control": "no-store" });
  if (cursors.nextCursor !== null) headers.set("X-Next-Cursor", String(cursors.nextCursor));
  if (cursors.prevCursor != null) headers.set("X-Prev-Cursor", String(cursors.prevCursor));
  return Response.json(items, { headers });
}
