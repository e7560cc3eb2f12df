import { z } from "zod";
import { enforceDraftRules, SMS_DEFAULT_MAX } from "./draft-rules";
import { fitReply } from "./draft-reply.server";
import { suggestReplyPrompt, type SuggestRequest } from "./prompts/suggest-reply";
import type { AiProviderName } from "./provider";
import { logRefusedDraft, runChain, type AiDeps } from "./run-chain.server";

const answer = z.object({ reply: z.string().trim().min(1).max(1600) });

// The offline composer's answers, by what the lead's latest text is about (first match wins). Deterministic.
const TOPICS: [RegExp, string][] = [
  [
    /\b(not interested|no thanks|remove me|leave me alone)\b/i,
    "Understood, thanks for letting me know. If anything changes, just text me here.",
  ],
  [
    /\b(price|cost|how much|quote|estimate|afford|payment|financ)/i,
    "Great question! Pricing depends on your home and usage. Would a quick 15-min call this week work to go over real numbers?",
  ],
  [
    /\b(when|time|schedule|appointment|available|call me|tomorrow|today|monday|tuesday|wednesday|thursday|friday|saturday|sunday)\b/i,
    "Happy to set that up. What day and time work best for you?",
  ],
  [
    /\b(roof|shade|battery|panel|install|permit|hoa)\b/i,
    "Good question. It depends on your home, and a quick look at your roof and usage answers it. Would a short call this week work?",
  ],
  [/\?\s*$/, "Thanks for asking! Let me get you the details. Would a quick call this week work?"],
];
const DEFAULT = "Thanks for your message! Would a quick call this week work to go over your options?";

/** Without a model: an answer to the lead's latest text by its topic, greeted by first name. */
export function offlineSuggestion(r: SuggestRequest): string {
  const last = [...r.thread].reverse().find((m) => m.from === "lead")?.text ?? "";
  const body = TOPICS.find(([re]) => re.test(last))?.[1] ?? DEFAULT;
  return fitReply(
    r.firstName ? `Hi ${r.firstName}, ${body.charAt(0).toLowerCase()}${body.slice(1)}` : body,
    SMS_DEFAULT_MAX,
  );
}

export type SuggestedReply = { text: string; provider: AiProviderName; refused: string[] };

/**
 * A suggested next text for a conversation (issue 27 item 5, decision 047): the AI chain (Workers AI →
 * OpenAI-compatible → offline composer) within the organisation's budget; the caller charged the user's quota. The
 * thread is untrusted (issue 23): a draft carrying a link, email address or phone number the team never sent (nor
 * the organisation's settings hold) is refused for the offline answer. Only ever returned to fill the reply box.
 */
export async function suggestReplyDraft(
  deps: AiDeps,
  r: SuggestRequest,
  allowed: readonly (string | null | undefined)[] = [],
): Promise<SuggestedReply> {
  const { value, provider } = await runChain(deps, {
    kind: "suggest_reply",
    prompt: suggestReplyPrompt(r),
    schema: answer,
    offline: () => ({ reply: offlineSuggestion(r) }),
  });
  const team = r.thread.filter((m) => m.from === "team").map((m) => m.text);
  const ruled = enforceDraftRules(
    { content: value.reply },
    { messageType: "sms", firstTouch: false, maxLength: SMS_DEFAULT_MAX, allowedSources: [...team, ...allowed] },
  );
  if (ruled.foreign?.length) {
    await logRefusedDraft(deps, "suggest_reply", provider, ruled.foreign);
    return { text: offlineSuggestion(r), provider: "offline", refused: ruled.foreign };
  }
  return { text: ruled.content, provider, refused: [] };
}
