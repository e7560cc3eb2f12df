import type { AiPrompt } from "../provider";
import { DRAFT_RULES } from "./rules";

export type ChatTurn = { role: "user" | "assistant"; content: string };

export function chatPrompt(message: string, context: string, history: readonly ChatTurn[]): AiPrompt {
  const thread = history
    .slice(-10)
    .map((t) => `${t.role === "user" ? "User" : "Assistant"}: ${t.content.slice(0, 800)}`)
    .join("\n");
  return {
    system: [
      "You are the Idea Generator: a helpful assistant for solar sales reps, giving sales ideas and message copy.",
      DRAFT_RULES,
      'Answer with JSON only: {"response": "<your answer, plain text, may use - bullets>", "suggestions": ["<a follow-up question the user could ask>", "..."]} with 3 suggestions.',
    ].join("\n"),
    user: [
      thread && `Conversation so far:\n${thread}`,
      context.trim() && `Context from the user: ${context.trim()}`,
      `User: ${message}`,
    ]
      .filter(Boolean)
      .join("\n\n"),
    maxTokens: 700,
  };
}
