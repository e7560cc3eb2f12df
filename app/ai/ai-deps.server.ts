import type { AppLoadContext } from "@remix-run/cloudflare";
import { aiProvidersFor } from "./registry.server";
import { recordingLog, type AiDeps } from "./run-chain.server";

/** The provider chain for this request's configuration; a provider's failure is recorded for the health card. */
export function aiDeps(context: AppLoadContext): AiDeps {
  return { providers: aiProvidersFor(context.cloudflare.env), log: recordingLog(context.db, context.clock) };
}
