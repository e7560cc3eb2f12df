import { recordStatus } from "~/activity/system-status.server";
import type { Db } from "~/db/client.server";
import type { AiProvider, AiProviderName, AiTask } from "./provider";
import type { Clock } from "~/lib/clock";

/** Told of each provider that failed; may return a promise (e.g. recording the error), which the chain awaits. */
export type AiLog = (event: { kind: string; provider: AiProviderName; error: string }) => unknown;

/** Says whether one more model call fits the organisation's daily budget (counting it); false = offline only. */
export type AiBudget = (kind: string) => Promise<boolean>;

export type AiDeps = {
  providers: readonly AiProvider[];
  /** Where fall-throughs are reported; console.warn by default. */
  log?: AiLog;
  /** The organisation's daily AI budget (org-ai-budget.server.ts); none = unmetered (unit tests of one provider). */
  budget?: AiBudget;
  /** The caller's request: when it aborts (the client left), the provider call is aborted and no other is asked. */
  signal?: AbortSignal;
};

export type ChainResult<T> = { value: T; provider: AiProviderName };

export const defaultLog: AiLog = (e) =>
  console.warn(`[ai] ${e.kind}: ${e.provider} failed, trying the next provider: ${e.error}`);

/**
 * Reports a model's draft that was refused for naming contact details nobody wrote (the offline composer answers
 * instead). Logging never fails the request.
 */
export async function logRefusedDraft(deps: AiDeps, kind: string, provider: AiProviderName, foreign: string[]) {
  const error = `draft refused: contact details nobody wrote (${foreign.slice(0, 3).join(", ")})`;
  await Promise.resolve(deps.log?.({ kind, provider, error })).catch(() => undefined);
}

/** The log the app uses: the console, and `provider_error:ai` in system_status (the Analytics health card). */
export function recordingLog(db: Db, clock: Clock): AiLog {
  return async (e) => {
    defaultLog(e);
    await recordStatus(
      db,
      "provider_error:ai",
      { provider: e.provider, task: e.kind, message: e.error.slice(0, 300) },
      clock(),
    );
  };
}

/**
 * The chain this call may use: all of it while the organisation's daily budget lasts (one call counted), only the
 * offline composer once it is spent (issue 23). A chain with no model costs nothing and is not counted; a budget
 * that cannot be read (D1 failing) answers offline rather than spend unmetered.
 */
export async function providersWithinBudget(deps: AiDeps, kind: string): Promise<readonly AiProvider[]> {
  if (!deps.budget || deps.providers.every((p) => p.name === "offline")) return deps.providers;
  const allowed = await deps.budget(kind).catch((error) => {
    console.error("[ai] the daily budget could not be checked; answering offline", error);
    return false;
  });
  return allowed ? deps.providers : deps.providers.filter((p) => p.name === "offline");
}

/** Runs `fn` with an AbortSignal that fires after `ms`; rejects at the deadline even if `fn` ignores the signal. */
async function withTimeout<T>(ms: number, fn: (signal: AbortSignal) => Promise<T>, outer?: AbortSignal): Promise<T> {
  const controller = new AbortController();
  const stop = () => controller.abort(outer?.reason);
  outer?.addEventListener("abort", stop);
  let timer: ReturnType<typeof setTimeout> | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      controller.abort();
      reject(new Error(`timed out after ${ms} ms`));
    }, ms);
  });
  try {
    return await Promise.race([fn(controller.signal), deadline]);
  } finally {
    clearTimeout(timer);
    outer?.removeEventListener("abort", stop);
  }
}

/**
 * Asks each provider in turn; a failure, a timeout or an answer the schema refuses is logged and the next one is
 * asked. The offline composer closes every chain (registry.server.ts), so a configured chain always answers; a chain
 * without it throws the last error.
 */
export async function runChain<T>(deps: AiDeps, task: AiTask<T>): Promise<ChainResult<T>> {
  const log = deps.log ?? defaultLog;
  let lastError: unknown = new Error("no AI provider configured");
  for (const provider of await providersWithinBudget(deps, task.kind)) {
    deps.signal?.throwIfAborted();
    try {
      const raw = await withTimeout(provider.timeoutMs, (signal) => provider.run(task, signal), deps.signal);
      // Providers validate, but a provider that forgot must not leak an unchecked shape.
      const value = task.schema.parse(raw);
      return { value, provider: provider.name };
    } catch (error) {
      lastError = error;
      if (deps.signal?.aborted) throw error;
      // A log that fails (e.g. its D1 write) must not stop the chain.
      await Promise.resolve()
        .then(() =>
          log({
            kind: task.kind,
            provider: provider.name,
            error: error instanceof Error ? error.message : String(error),
          }),
        )
        .catch(() => undefined);
    }
  }
  throw lastError;
}
