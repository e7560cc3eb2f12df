import type { AppLoadContext } from "@remix-run/cloudflare";
import { aiProvidersFor } from "./registry.server";
import type { AiDeps } from "./run-chain.server";

/** The provider chain for this request's configuration. */
export function aiDeps(context: AppLoadContext): AiDeps {
  return { providers: aiProvidersFor(context.cloudflare.env) };
}
