import type { AiProvider, AiTask } from "../provider";

/** The offline composer: no network, answers every task from its own `offline()` (rules, lexicons, templates). */
export function createOfflineComposer(): AiProvider {
  return {
    name: "offline",
    timeoutMs: 5_000,
    run<T>(task: AiTask<T>): Promise<T> {
      return Promise.resolve(task.offline());
    },
  };
}
