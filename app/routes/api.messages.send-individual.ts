import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/cloudflare";
import { requireApiUser } from "~/auth/guard.server";
import { idempotencyKey, methodNotAllowed, parseInput, readJson } from "~/lib/api.server";
import { apiRoute } from "~/lib/http.server";
import { clientIp } from "~/lib/request.server";
import { individualSchema, sendIndividual } from "~/messaging/create-individual-send.server";

/** GET on a POST-only endpoint: still 401 without a session, then 405. */
export async function loader(args: LoaderFunctionArgs) {
  await requireApiUser(args);
  return methodNotAllowed(["POST"]);
}

/** POST /api/messages/send-individual: one SMS or email to one contact. An `Idempotency-Key` header makes a client's retry safe. 202 with what was queued. */
export async function action(args: ActionFunctionArgs) {
  const user = await requireApiUser(args); // 401 comes before anything else
  const { request, context } = args;
  if (request.method !== "POST") return methodNotAllowed(["POST"]);
  return apiRoute(async () => {
    // A `null` body reads as an empty one, so the reply names the missing fields.
    const input = parseInput(individualSchema, (await readJson(request)) ?? {}, "Please enter message content");
    const deps = { db: context.db, queue: context.cloudflare.env.JOBS, now: context.clock() };
    const result = await sendIndividual(deps, input, { userId: user.id, ipAddress: clientIp(request) }, idempotencyKey(request));
    return Response.json(result, { status: 202 });
  });
}
