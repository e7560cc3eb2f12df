import type { AiProvider, AiProviderName, AiTask } from "./provider";

export type AiLog = (event: { kind: string; provider: AiProviderName; error: string }) => void;

export type AiDeps = {
  providers: readonly AiProvider[];
  /** Where fall-throughs are reported; console.warn by default. */
  log?: AiLog;
};

export type ChainResult<T> = { value: T; provider: AiProviderName };

const defaultLog: AiLog = (e) => console.warn(`[ai] ${e.kind}: ${e.provider} failed, trying the next provider: ${e.error}`);

/** Runs `fn` with an AbortSignal that fires after `ms`; rejects at the deadline even if `fn` ignores the signal. */
async function withTimeout<T>(ms: number, fn: (signal: AbortSignal) => Promise<T>): Promise<T> {
  const controller = new AbortController();
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
  for (const provider of deps.providers) {
    try {
      const raw = await withTimeout(provider.timeoutMs, (signal) => provider.run(task, signal));
      // Providers validate, but a provider that forgot must not leak an unchecked shape.
      const value = task.schema.parse(raw);
      return { value, provider: provider.name };
    } catch (error) {
      lastError = error;
      log({ kind: task.kind, provider: provider.name, error: error instanceof Error ? error.message : String(error) });
    }
  }
  throw lastError;
}
