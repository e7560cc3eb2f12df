/**
 * One interface for every AI provider; the registry (registry.server.ts) builds the chain from configuration:
 * Workers AI binding → OpenAI-compatible endpoint → offline composer. A task carries both a prompt (for language
 * models, which must answer JSON that the task's zod schema accepts) and an offline answer (for the composer), so
 * every provider answers the same question in its own way.
 */
import type { z } from "zod";

export type AiProviderName = "workers-ai" | "openai" | "offline";

export type AiPrompt = { system: string; user: string; maxTokens: number };

export type AiTask<T> = {
  /** For logs: "classify-reply", "step-content", "chat", "email". */
  kind: string;
  prompt: AiPrompt;
  schema: z.ZodType<T>;
  /** The answer without any model: deterministic, offline. */
  offline: () => T;
};

export interface AiProvider {
  readonly name: AiProviderName;
  /** Per-attempt limit; the chain aborts the attempt and moves on after it. */
  readonly timeoutMs: number;
  run<T>(task: AiTask<T>, signal: AbortSignal): Promise<T>;
}

/** A provider answered something the task's schema refuses (or not JSON at all). */
export class MalformedAiOutput extends Error {
  constructor(message: string) {
    super(message);
    this.name = "MalformedAiOutput";
  }
}
