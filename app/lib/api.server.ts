import type { z } from "zod";
import { AppError } from "./app-error";

/** Reads a JSON body; a missing/invalid body is a 400, a wrong content type a 415 (both `{ message }` via apiRoute). */
export async function readJson(request: Request): Promise<unknown> {
  const type = request.headers.get("Content-Type") ?? "";
  if (!type.includes("application/json")) throw new AppError("unsupported_media_type", "Content-Type must be application/json");
  try {
    return await request.json();
  } catch {
    throw new AppError("validation", "Request body must be valid JSON");
  }
}

/** Parses with zod; the first issue's message becomes a validation AppError (400 `{ message }`). */
export function parseInput<S extends z.ZodTypeAny>(schema: S, input: unknown, fallback = "Invalid request"): z.infer<S> {
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
