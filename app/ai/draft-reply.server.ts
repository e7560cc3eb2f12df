import { z } from "zod";
import { enforceDraftRules, SMS_HARD_MAX } from "./draft-rules";
import { replyPrompt, type ReplyRequest } from "./prompts/reply";
import type { AiProviderName } from "./provider";
import { runChain, type AiDeps } from "./run-chain.server";

const answer = z.object({ reply: z.string().trim().min(1).max(1600) });

// One per responder response style (app/responders/responder-schema.ts RESPONSE_STYLES).
const GREETING: Record<string, (name: string) => string> = {
  professional: (n) => `Hello ${n},`,
  friendly: (n) => `Hi ${n}!`,
  casual: (n) => `Hey ${n},`,
  technical: (n) => `Hello ${n},`,
  empathetic: (n) => `Hi ${n}, thanks for reaching out.`,
};

/** Cut to `max` characters at a word boundary (an SMS reply must not end mid-word). */
export function fitReply(text: string, max: number): string {
  const clean = text.replace(/\s+/g, " ").trim();
  if (clean.length <= max) return clean;
  const cut = clean.slice(0, max + 1);
  const space = cut.lastIndexOf(" ");
  return (space > max * 0.6 ? cut.slice(0, space) : clean.slice(0, max)).replace(/[\s,;:-]+$/, "");
}

/** Without a model: the written answer, greeted by name in the chosen style. Deterministic. */
export function offlineReply(r: ReplyRequest): string {
  const greet = r.firstName ? (GREETING[r.style] ?? GREETING.professional)(r.firstName) : "";
  return [greet, r.written].filter(Boolean).join(" ");
}

export type DraftedReply = {
  text: string;
  provider: AiProviderName;
  /** Contact details the model added that nobody wrote: the draft was refused and the written answer used. */
  refused: string[];
};

/**
 * An auto-responder's `useAI` reply (issue 13): the AI chain (Workers AI → OpenAI-compatible → offline) rewrites
 * the responder's written answer for this inbound text in its style, within its maximum length. The draft passes
 * the same rules as every other draft (enforceDraftRules); one with a URL, email address or phone number that is
 * neither in the written answer nor in `allowed` (the organisation's settings) is refused for the written answer
 * (issue 23: the inbound text can steer a model, so the model's output is data).
 */
export async function draftReply(
  deps: AiDeps,
  r: ReplyRequest,
  allowed: readonly (string | null | undefined)[] = [],
): Promise<DraftedReply> {
  const { value, provider } = await runChain(deps, {
    kind: "reply",
    prompt: replyPrompt(r),
    schema: answer,
    offline: () => ({ reply: offlineReply(r) }),
  });
  // The responder's maxLength is applied by fitReply (a word boundary); the rules only hold the hard SMS limit.
  const ruled = enforceDraftRules(
    { content: value.reply },
    { messageType: "sms", firstTouch: false, maxLength: SMS_HARD_MAX, allowedSources: [r.written, ...allowed] },
  );
  if (ruled.foreign?.length)
    return { text: fitReply(offlineReply(r), r.maxLength), provider: "offline", refused: ruled.foreign };
  return { text: fitReply(ruled.content, r.maxLength), provider, refused: [] };
}
