import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/cloudflare";
import { requireApiUser } from "~/auth/guard.server";
import { idempotencyKey, methodNotAllowed } from "~/lib/api.server";
import { postJson } from "~/lib/http.server";
import { clientIp } from "~/lib/request.server";
import { manualSmsSchema, sendManualSmsTest } from "~/messaging/create-test-send.server";

export async function loader(args: LoaderFunctionArgs) {
  await requireApiUser(args); // still 401 without a session, then 405
  return methodNotAllowed(["POST"]);
}

/** POST /api/test/manual-sms: a test SMS to any number (exempt from quiet hours, never from opt-outs). 202 with what was queued; an `Idempotency-Key` header makes a retry safe. */
export async function action({ request, context }: ActionFunctionArgs) {
  const user = await requireApiUser({ request, context });
  const deps = { db: context.db, queue: context.cloudflare.env.JOBS, now: context.clock() };
  const actor = { userId: user.id, ipAddress: clientIp(request) };
  return postJson(request, manualSmsSchema, (input) => sendManualSmsTest(deps, input, actor, idempotencyKey(request)), { status: 202 });
}
