// Builds the provider chain from configuration: Workers AI when the binding exists, an OpenAI-compatible endpoint
// when configured, and always the offline composer last (decision 007).
import type { AiProvider } from "./provider";
import { createOfflineComposer } from "./providers/offline.server";
import { createOpenAi, OPENAI_DEFAULT_BASE, OPENAI_DEFAULT_MODEL, type OpenAiConfig } from "./providers/openai.server";
import { createWorkersAi, type AiBinding } from "./providers/workers-ai.server";

export type AiEnv = {
  AI?: unknown;
  OPENAI_API_KEY?: string;
  OPENAI_BASE_URL?: string;
  OPENAI_MODEL?: string;
  AI_DISABLE_WORKERS_AI?: string;
};

const setting = (v: unknown): string | undefined => (typeof v === "string" && v.trim() ? v.trim() : undefined);

/** OpenAI-compatible config when a key is set, or a base URL (self-hosted servers often need no key). */
export function openAiConfigFrom(env: AiEnv): OpenAiConfig | null {
  const apiKey = setting(env.OPENAI_API_KEY);
  const baseUrl = setting(env.OPENAI_BASE_URL);
  if (!apiKey && !baseUrl) return null;
  return {
    apiKey: apiKey ?? "",
    baseUrl: baseUrl ?? OPENAI_DEFAULT_BASE,
    model: setting(env.OPENAI_MODEL) ?? OPENAI_DEFAULT_MODEL,
  };
}

const isBinding = (v: unknown): v is AiBinding => !!v && typeof (v as { run?: unknown }).run === "function";

export function aiProvidersFor(env: AiEnv): AiProvider[] {
  const chain: AiProvider[] = [];
  if (isBinding(env.AI) && setting(env.AI_DISABLE_WORKERS_AI) !== "1") chain.push(createWorkersAi(env.AI));
  const openai = openAiConfigFrom(env);
  if (openai) chain.push(createOpenAi(openai));
  chain.push(createOfflineComposer());
  return chain;
}
