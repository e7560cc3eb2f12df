import { z } from "zod";
import { normalizeTypography, removePromises } from "../ai/draft-rules";
import { composeChatAnswer } from "../ai/offline-chat";
import { chatPrompt, type ChatTurn } from "../ai/prompts/chat";
import type { AiProviderName } from "../ai/provider";
import { runChain, type AiDeps } from "../ai/run-chain.server";

export const chatInput = z.object({
  message: z.string().trim().min(1, "Type a message first").max(2000),
  context: z.string().trim().max(2000).optional().default(""),
  chatHistory: z
    .array(z.object({ role: z.enum(["user", "assistant"]), content: z.string().max(8000) }))
    .max(100)
    .optional()
    .default([]),
});
export type ChatInput = z.output<typeof chatInput>;

const answer = z.object({
  response: z.string().min(1).max(8000),
  suggestions: z.array(z.string().min(1).max(300)).max(10).default([]),
});

export type ChatAnswer = { response: string; suggestions: string[]; provider: AiProviderName };

/** One Idea Generator answer. Suggestions are capped at 3 (SPEC §9 shows only the first 3). */
export async function chatWithAssistant(deps: AiDeps, input: ChatInput, seed = 0): Promise<ChatAnswer> {
  const history: ChatTurn[] = input.chatHistory;
  const { value, provider } = await runChain(deps, {
    kind: "chat",
    prompt: chatPrompt(input.message, input.context, history),
    schema: answer,
    offline: () => composeChatAnswer(input.message, input.context, seed, input.chatHistory),
  });
  return {
    response: removePromises(normalizeTypography(value.response)).trim(),
    suggestions: (value.suggestions ?? [])
      .map((s) => normalizeTypography(s).trim())
      .filter(Boolean)
      .slice(0, 3),
    provider,
  };
}
