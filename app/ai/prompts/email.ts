import type { AiPrompt } from "../provider";
import { DRAFT_RULES } from "./rules";

export function emailPrompt(prompt: string, type: string, context: string): AiPrompt {
  return {
    system: [
      DRAFT_RULES,
      'Answer with JSON only: {"subject": "<email subject>", "content": "<plain-text email body with greeting and sign-off>"}',
    ].join("\n"),
    user: [
      `Write a ${type || "sales"} email for a solar sales team.`,
      `Request: ${prompt}`,
      context && `Context: ${context}`,
    ]
      .filter(Boolean)
      .join("\n"),
    maxTokens: 700,
  };
}
