import { z } from "zod";
import { parseModelJson } from "../parse-json";
import { chatMessages, MalformedAiOutput, sseText, type AiPrompt, type AiProvider, type AiTask } from "../provider";

export type OpenAiConfig = {
  /** May be empty for a self-hosted server without auth (then OPENAI_BASE_URL must be set). */
  apiKey: string;
  /** Up to and including /v1, e.g. https://api.openai.com/v1 or http://127.0.0.1:8000/v1. */
  baseUrl: string;
  model: string;
  timeoutMs?: number;
};

export const OPENAI_DEFAULT_BASE = "https://api.openai.com/v1";
export const OPENAI_DEFAULT_MODEL = "gpt-4o-mini";

const completion = z.object({
  choices: z.array(z.object({ message: z.object({ content: z.string().nullable() }) })).min(1),
});

/** Any OpenAI-compatible /chat/completions endpoint over fetch (OpenAI itself, vLLM, Ollama, LM Studio …). */
export function createOpenAi(config: OpenAiConfig): AiProvider {
  const url = `${config.baseUrl.replace(/\/+$/, "")}/chat/completions`;
  /** One chat-completions call: the prompt as system + user messages, plus `extra` (JSON mode or streaming). */
  const post = async (prompt: AiPrompt, signal: AbortSignal, extra: Record<string, unknown>) => {
    const headers: Record<string, string> = { "Content-Type": "application/json" };
    if (config.apiKey) headers.Authorization = `Bearer ${config.apiKey}`;
    const res = await fetch(url, {
      method: "POST",
      headers,
      signal,
      body: JSON.stringify({
        model: config.model,
        messages: chatMessages(prompt),
        max_tokens: prompt.maxTokens,
        temperature: 0.7,
        ...extra,
      }),
    });
    if (!res.ok || !res.body) {
      await res.body?.cancel();
      throw new Error(`OpenAI-compatible endpoint answered HTTP ${res.status}`);
    }
    return res;
  };
  return {
    name: "openai",
    timeoutMs: config.timeoutMs ?? 15_000,
    async run<T>(task: AiTask<T>, signal: AbortSignal): Promise<T> {
      const res = await post(task.prompt, signal, { response_format: { type: "json_object" } });
      const body = completion.safeParse(await res.json().catch(() => null));
      if (!body.success) throw new MalformedAiOutput("not a chat-completions answer");
      const content = body.data.choices[0].message.content;
      if (!content) throw new MalformedAiOutput("empty completion");
      return parseModelJson(content, task.schema);
    },
    async *stream(prompt: AiPrompt, signal: AbortSignal): AsyncIterable<string> {
      const res = await post(prompt, signal, { stream: true });
      yield* sseText(
        res.body!,
        (e) => (e as { choices?: { delta?: { content?: string | null } }[] }).choices?.[0]?.delta?.content,
      );
    },
  };
}
