import { json } from "@remix-run/cloudflare";
import { AppError } from "~/lib/app-error";
import type { z } from "zod";
import { methodNotAllowed, parseInput, readJson } from "./api.server";
import { parseId } from "~/lib/ids";

/**
 * /api: maps what a handler threw to a Response. AppError → `{ message, ...details }` with its status (and
 * Retry-After when set); a thrown Response passes through; anything else is rethrown (a 500, logged by Remix).
 */
export function apiErrorResponse(err: unknown): Response {
  if (err instanceof Response) return err;
  if (err instanceof AppError) {
    const headers = new Headers();
    if (err.retryAfter !== undefined) headers.set("Retry-After", String(Math.max(1, Math.ceil(err.retryAfter))));
    return Response.json({ ...(err.details ?? {}), message: err.message }, { status: err.status, headers });
  }
  throw err;
}

/** Wraps an /api loader or action body so every AppError becomes its `{ message }` response. */
export async function apiRoute(run: () => Promise<Response>): Promise<Response> {
  try {
    return await run();
  } catch (err) {
    return apiErrorResponse(err);
  }
}

/** What a screen's action returns when domain code refused the input: rendered beside the field or as a toast. */
export type FormErrorReply = { ok: false; message: string; title?: string; field?: string; code: AppError["code"] };

/**
 * Screens: an AppError → `{ ok: false, message, title, field }` with its status (Remix renders the route with it as
 * action data, so the reply shows without JS); anything else is rethrown to the error boundary.
 */
export function formErrorReply(err: unknown, fallbackTitle?: string) {
  if (err instanceof Response) throw err;
  if (!(err instanceof AppError)) throw err;
  const body: FormErrorReply = { ok: false, message: err.message, title: err.title ?? fallbackTitle, field: err.field, code: err.code };
  return json(body, { status: err.status });
}

/** Loaders of screens: a not_found AppError becomes a 404 Response for the route's ErrorBoundary. */
export function throwAsResponse(err: unknown): never {
  if (err instanceof AppError) throw new Response(err.message, { status: err.status, statusText: err.message });
  throw err;
}

/**
 * Screens: the posted form read with `schema` (a union keyed by `intent`, usually): a form no button of the page could
 * have sent is a 400 "Unknown action" Response, not a 500.
 */
export async function formIntent<S extends z.ZodTypeAny>(request: Request, schema: S): Promise<z.infer<S>> {
  const parsed = schema.safeParse(Object.fromEntries(await request.formData()));
  if (!parsed.success) throw new Response("Unknown action", { status: 400 });
  return parsed.data;
}

/** Screens: a route param id (ids.ts rules), or the 404 Response the route's ErrorBoundary shows. */
export function routeId(raw: unknown, what = "Not found"): number {
  const id = parseId(raw);
  if (id === null) throw new Response(what, { status: 404, statusText: "Not Found" });
  return id;
}

/**
 * /api endpoints that take a JSON body by POST (call after the route's guard, so 401 comes first): 405 for other
 * methods; the body parsed with `schema` (a `null` body reads as empty, so the reply names the missing fields);
 * `run` with the input; its result as JSON with `status`. AppErrors become `{ message }`.
 */
export async function postJson<S extends z.ZodTypeAny>(
  request: Request,
  schema: S,
  run: (input: z.infer<S>) => Promise<unknown>,
  opts: { status?: number; fallback?: string } = {},
): Promise<Response> {
  if (request.method !== "POST") return methodNotAllowed(["POST"]);
  return apiRoute(async () => {
    const input = parseInput(schema, (await readJson(request)) ?? {}, opts.fallback);
    return Response.json(await run(input), { status: opts.status ?? 200 });
  });
}
