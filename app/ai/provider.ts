/**
 * One interface for every AI provider; the registry (registry.server.ts) builds the chain from configuration:
 * Workers AI binding → OpenAI-compatible endpoint → offline composer. A task carries both a prompt (for language
 * models, which must answer JSON that the task's zod schema accepts) and an offline answer (for the composer), so
 * every provider answers the same question in its own way.
 */
import type { z } from "zod";

export type AiProviderName = "workers-ai" | "openai" | "offline";

export type AiPrompt = {
  system: string;
  user: string;
  maxTokens: number;
  /** A picture the user message shows (a bill photo, decision 077): vision models only; its text is data. */
  image?: { contentType: string; base64: string };
};

export type AiTask<T> = {
  /** For logs: "classify-reply", "step-content", "chat", "email". */
  kind: string;
  prompt: AiPrompt;
  /** What the answer must be; its input is whatever the model wrote. */
  schema: z.ZodType<T, z.ZodTypeDef, unknown>;
  /** The answer without any model: deterministic, offline. */
  offline: () => T;
};

export interface AiProvider {
  readonly name: AiProviderName;
  /** Per-attempt limit; the chain aborts the attempt and moves on after it. */
  readonly timeoutMs: number;
  run<T>(task: AiTask<T>, signal: AbortSignal): Promise<T>;
  /** Plain text as the model writes it, piece by piece (the Idea Generator streams its answer with JS). */
  stream?(prompt: AiPrompt, signal: AbortSignal): AsyncIterable<string>;
}

/** A prompt as chat messages (both language-model providers take this shape). */
export function chatMessages(prompt: AiPrompt) {
  return [
    { role: "system", content: prompt.system },
    {
      role: "user",
      // With a picture: the OpenAI vision shape, the text and the image as a data URL.
      content: prompt.image
        ? [
            { type: "text", text: prompt.user },
            { type: "image_url", image_url: { url: `data:${prompt.image.contentType};base64,${prompt.image.base64}` } },
          ]
        : prompt.user,
    },
  ];
}

/** The text pieces of a server-sent-events body whose events carry JSON; `pick` takes the text out of one event. */
export async function* sseText(
  body: ReadableStream<Uint8Array>,
  pick: (event: unknown) => string | null | undefined,
): AsyncIterable<string> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let buffer = "";
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      buffer += decoder.decode(value, { stream: true });
      let end: number;
      while ((end = buffer.indexOf("\n")) >= 0) {
        const line = buffer.slice(0, end).trim();
        buffer = buffer.slice(end + 1);
        if (!line.startsWith("data:")) continue;
        const data = line.slice(5).trim();
        if (data === "[DONE]") return;
        let event: unknown;
        try {
          event = JSON.parse(data);
        } catch {
          throw new MalformedAiOutput("a stream event that is not JSON");
        }
        const text = pick(event);
        if (text) yield text;
      }
    }
  } finally {
    reader.releaseLock();
  }
}

/** A provider answered something the task's schema refuses (or not JSON at all). */
export class MalformedAiOutput extends Error {
  constructor(message: string) {
    super(message);
    this.name = "MalformedAiOutput";
  }
}
