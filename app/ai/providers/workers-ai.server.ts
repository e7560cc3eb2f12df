import { parseModelJson } from "../parse-json";
import { chatMessages, MalformedAiOutput, sseText, type AiPrompt, type AiProvider, type AiTask } from "../provider";

/** The part of the `env.AI` binding we use (kept structural so tests can hand in a fake binding). */
export type AiBinding = {
  run(model: string, inputs: Record<string, unknown>, options?: Record<string, unknown>): Promise<unknown>;
};

/** A current instruct model on Workers AI (decision 007). */
export const WORKERS_AI_MODEL = "@cf/meta/llama-3.3-70b-instruct-fp8-fast";
/** Its vision model, for a task with a picture (a bill photo, decision 077). */
export const WORKERS_AI_VISION_MODEL = "@cf/meta/llama-3.2-11b-vision-instruct";

export function createWorkersAi(binding: AiBinding, opts: { model?: string; timeoutMs?: number } = {}): AiProvider {
  const model = opts.model ?? WORKERS_AI_MODEL;
  return {
    name: "workers-ai",
    timeoutMs: opts.timeoutMs ?? 12_000,
    async run<T>(task: AiTask<T>, signal: AbortSignal): Promise<T> {
      // Under `wrangler dev --local` this throws at once ("Binding AI needs to be run remotely"): the chain moves on.
      const image = task.prompt.image;
      const out = await binding.run(
        image ? WORKERS_AI_VISION_MODEL : model,
        image
          ? {
              // The vision model takes the text as chat messages and the picture as its own input.
              messages: chatMessages({ ...task.prompt, image: undefined }),
              image: image.base64,
              max_tokens: task.prompt.maxTokens,
              temperature: 0.2,
            }
          : {
              messages: chatMessages(task.prompt),
              max_tokens: task.prompt.maxTokens,
              temperature: 0.7,
            },
        { signal },
      );
      const response = (out as { response?: unknown } | null)?.response;
      if (typeof response === "string") return parseModelJson(response, task.schema);
      // JSON mode models answer an object already.
      if (response && typeof response === "object") return parseModelJson(JSON.stringify(response), task.schema);
      throw new MalformedAiOutput("Workers AI answered without a response");
    },
    async *stream(prompt: AiPrompt, signal: AbortSignal): AsyncIterable<string> {
      const out = await binding.run(
        model,
        {
          messages: chatMessages(prompt),
          max_tokens: prompt.maxTokens,
          temperature: 0.7,
          stream: true,
        },
        { signal },
      );
      if (!(out instanceof ReadableStream)) throw new MalformedAiOutput("Workers AI did not stream");
      yield* sseText(out as ReadableStream<Uint8Array>, (e) => (e as { response?: string }).response);
    },
  };
}
