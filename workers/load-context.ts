import type { AppLoadContext } from "@remix-run/cloudflare";
import { createDb, type Db } from "~/db/client.server";
import { systemClock, type Clock } from "~/lib/clock";

declare module "@remix-run/cloudflare" {
  interface AppLoadContext {
    cloudflare: { env: Env; ctx: ExecutionContext };
    db: Db;
    clock: Clock;
    /** Per-request CSP nonce for Remix's inline scripts. */
    nonce: string;
  }
}

export function getLoadContext(env: Env, ctx: ExecutionContext, nonce: string): AppLoadContext {
  return { cloudflare: { env, ctx }, db: createDb(env.DB), clock: systemClock, nonce };
}
