import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/cloudflare";
import { requireApiUser } from "~/auth/guard.server";
import { methodNotAllowed, readJson } from "~/lib/api.server";
import { apiError, clientIp } from "~/lib/request.server";
import { SendRequestError, type Actor } from "./create-broadcast.server";
import type { JobQueue } from "./create-outbound-messages.server";
import type { Db } from "~/db/client.server";

type Handler = (deps: { db: Db; queue: JobQueue; now: Date }, body: unknown, actor: Actor, key?: string) => Promise<unknown>;

/**
 * The shape every sending endpoint shares: POST only, a session, a JSON body, one domain call, 4xx
 * `{ message }` for bad input. An `Idempotency-Key` header makes client retries safe.
 */
export function sendAction(handler: Handler, successStatus = 202) {
  return async (args: ActionFunctionArgs) => {
    const user = await requireApiUser(args); // 401 comes before anything else
    if (args.request.method !== "POST") return methodNotAllowed(["POST"]);
    const body = await readJson(args.request);
    const key = args.request.headers.get("Idempotency-Key")?.slice(0, 200) || undefined;
    try {
      const result = await handler(
        { db: args.context.db, queue: args.context.cloudflare.env.JOBS, now: args.context.clock() },
        body,
        { userId: user.id, ipAddress: clientIp(args.request) },
        key,
      );
      return Response.json(result, { status: successStatus });
    } catch (err) {
      if (err instanceof SendRequestError) return apiError(err.status, err.message);
      throw err;
    }
  };
}

/** GET on a POST-only endpoint: still 401 without a session, then 405. */
export const postOnly = async (args: LoaderFunctionArgs) => {
  await requireApiUser(args);
  return methodNotAllowed(["POST"]);
};
