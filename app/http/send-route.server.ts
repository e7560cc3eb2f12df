import type { AppLoadContext } from "@remix-run/cloudflare";
import type { z } from "zod";
import type { SessionUser } from "~/auth/session.server";
import type { SendRequestDeps } from "~/messaging/check-send-request.server";
import { idempotencyKey, methodNotAllowed } from "./api.server";
import { AppError } from "~/lib/app-error";
import { apiErrorResponse, postJson } from "./http.server";
import { clientIp } from "~/lib/request.server";
import { requirePublicUrl } from "~/messaging/check-public-url.server";
import type { Actor } from "~/lib/actor";
import type { Role } from "~/db/schema";

/** The sender: who is logged as sending, and whose role bounds the contacts they may send to (decision 048). */
type Sender = Actor & { role: Role };

/** One POST+JSON send endpoint: its body schema and the domain function that queues the send. */
export type SendEndpoint = {
  schema: z.ZodTypeAny;
  run: (deps: SendRequestDeps, input: never, actor: Sender, key?: string) => Promise<unknown>;
};

/** Keeps each endpoint's input type tied to its schema (a table of these is what a send route serves). */
export function sendEndpoint<S extends z.ZodTypeAny>(
  schema: S,
  run: (deps: SendRequestDeps, input: z.infer<S>, actor: Sender, key?: string) => Promise<unknown>,
): SendEndpoint {
  return { schema, run: run as SendEndpoint["run"] };
}

/**
 * The loader and action of every send route after its guard: GET/HEAD → 405 (POST only, whatever the segment);
 * else picks the endpoint by the route's one URL parameter, its last segment (404 for another), parses the JSON
 * body, runs the send with the acting user and the client's `Idempotency-Key`, answers 202 with what was queued —
 * or 503 before anything is written while PUBLIC_BASE_URL cannot be this app's public address (check-public-url).
 */
export function runSendEndpoint(
  args: { request: Request; context: AppLoadContext; params: Record<string, string | undefined> },
  user: SessionUser,
  endpoints: Record<string, SendEndpoint>,
): Promise<Response> {
  const { request, context } = args;
  if (request.method === "GET" || request.method === "HEAD") return Promise.resolve(methodNotAllowed(["POST"]));
  // A send route has one URL parameter, its last segment (`/api/messages/:send`, `/api/test/:kind`).
  const name = Object.values(args.params).at(-1) ?? "";
  const endpoint = Object.hasOwn(endpoints, name) ? endpoints[name] : undefined;
  if (!endpoint) return Promise.resolve(apiErrorResponse(new AppError("not_found", "Not found")));
  const deps: SendRequestDeps = context.domain();
  const actor: Sender = { userId: user.id, role: user.role, ipAddress: clientIp(request) };
  return postJson(
    request,
    endpoint.schema,
    (input) => {
      requirePublicUrl(context.cloudflare.env);
      return endpoint.run(deps, input as never, actor, idempotencyKey(request));
    },
    { status: 202 },
  );
}
