import type { z } from "zod";
import { apiError } from "./request.server";

/** Reads a JSON body; a missing/invalid body or content type is a 400 with a clear message. */
export async function readJson(request: Request): Promise<unknown> {
  const type = request.headers.get("Content-Type") ?? "";
  if (!type.includes("application/json")) throw apiError(415, "Content-Type must be application/json");
  try {
    return await request.json();
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
