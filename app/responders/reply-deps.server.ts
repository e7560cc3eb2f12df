import type { Db } from "~/db/client.server";
import { alertConfig, type ReplyDeps } from "./reply-deps";

/** The reply processors' providers from the environment: queue, alert addresses, and the AI classifier. */
export function replyDepsFor(env: Env, _db: Db): Omit<ReplyDeps, "db" | "now"> {
  return {
    queue: env.JOBS,
    config: alertConfig(env),
    classify: null, // wired to app/ai classifyReply once the ai branch is merged
    draft: null,
  };
}
