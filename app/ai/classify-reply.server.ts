/**
 * Reply classification: an inbound text's intent, sentiment and confidence, through the provider chain, with a
 * keyword/lexicon classifier as the offline answer. Every call is recorded in ai_classifications with its measured
 * analysis time, so figures on screens are real.
 */
import { z } from "zod";
import type { Db } from "~/db/client.server";
import { aiClassifications } from "~/db/schema";
import { classifyReplyPrompt, INTENTS, SENTIMENTS } from "./prompts/classify-reply";
import { runChain, type AiDeps } from "./run-chain.server";
import type { AiProviderName } from "./provider";
import { systemClock, type Clock } from "~/lib/clock";

export type ReplyIntent = (typeof INTENTS)[number];
export type ReplySentiment = (typeof SENTIMENTS)[number];

export type ReplyClassification = {
  intent: ReplyIntent;
  sentiment: ReplySentiment;
  /** 0–100. */
  confidence: number;
  provider: AiProviderName;
  analysisMs: number;
  /** The ai_classifications row (null when `record: false`). */
  id: number | null;
};

export type ClassifyDeps = AiDeps & { db: Db; clock?: Clock };
export type ClassifyOptions = { messageId?: number | null; record?: boolean };

const answerSchema = z.object({
  intent: z.enum(INTENTS),
  sentiment: z.enum(SENTIMENTS),
  confidence: z.coerce
    .number()
    .min(0)
    .max(100)
    .transform((n) => Math.round(n)),
});

type Answer = z.infer<typeof answerSchema>;

// Lexicon, in priority order: the first intent with a hit wins (an opt-out beats everything else in the same text).
const RULES: Array<{ intent: ReplyIntent; patterns: RegExp[] }> = [
  {
    intent: "opt_out_like",
    patterns: [
      /^\s*(stop|stopall|unsubscribe|cancel|end|quit|optout|opt out|revoke)\s*[.!]*\s*$/i,
      /\b(unsubscribe|opt(?:\s|-)?out|remove me|take me off|delete my (?:number|info)|stop (?:texting|messaging|contacting|calling|sending)|do ?n[o']t (?:text|contact|call|message) me|lose my number|leave me alone)\b/i,
    ],
  },
  {
    intent: "not_interested",
    patterns: [
      /\b(not interested|no thanks|no thank you|not for (?:me|us)|pass\b|we(?:'| a)re good|i(?:'| a)m good|already (?:have|got|went with) (?:solar|panels|a system|another)|never mind|nah\b|not right now, ?ever|no longer interested)\b/i,
      /^\s*no\s*[.!]*\s*$/i,
    ],
  },
  {
    intent: "appointment_request",
    patterns: [
      /\b(appointment|schedule|book(?:ing)?|set up (?:a )?(?:call|time|meeting|visit)|come (?:by|out|over)|consultation|site (?:visit|survey)|call me|give me a call|can you call|meet(?:ing)?)\b/i,
      /\b(monday|tuesday|wednesday|thursday|friday|saturday|sunday|tomorrow|this week|next week|weekend)\b.*\b(work|good|free|available|ok|okay)\b/i,
      /\b(?:at|after|around|before) \d{1,2}(?::\d\d)?\s*(?:am|pm)?\b/i,
    ],
  },
  {
    intent: "pricing_question",
    patterns: [
      /\b(how much|price|pricing|cost|costs|quote|estimate|financing|finance|loan|lease|ppa|monthly payment|payments?|down payment|tax credit|rebate|incentive|\$\d)/i,
      /\bwhat (?:would|will|does) (?:it|this|that) (?:cost|run|be)\b/i,
    ],
  },
  {
    intent: "objection",
    patterns: [
      /\b(rent(?:ing)?|renter|landlord|hoa|roof (?:is|needs)|new roof|shade|shady|trees|credit|too expensive|can'?t afford|scam|trust|moving|selling (?:the|my) house|not sure|worried|concern|heard bad|bad reviews|think about it|busy right now|maybe later|not now|spouse|wife|husband)\b/i,
    ],
  },
  {
    intent: "interested",
    patterns: [
      /\b(interested|yes|yeah|yep|sure|sounds good|tell me more|more info|more information|learn more|send (?:me )?(?:info|details)|i'?d like|i want|let'?s do|count me in|absolutely|definitely|please do)\b/i,
    ],
  },
];

const POSITIVE =
  /\b(yes|yeah|great|good|love|thanks|thank you|interested|awesome|perfect|sure|sounds good|excited|definitely|absolutely|please)\b/gi;
const NEGATIVE =
  /\b(no|not|stop|never|scam|annoying|spam|angry|worried|expensive|hate|bad|don'?t|can'?t|won'?t|leave me alone|remove)\b/gi;

/** The offline classifier: deterministic, explainable, no network. */
export function classifyByLexicon(text: string): Answer {
  const t = text.trim();
  let intent: ReplyIntent = "other";
  let hits = 0;
  for (const rule of RULES) {
    const n = rule.patterns.filter((p) => p.test(t)).length;
    if (n > 0) {
      intent = rule.intent;
      hits = n;
      break;
    }
  }
  const pos = t.match(POSITIVE)?.length ?? 0;
  const neg = t.match(NEGATIVE)?.length ?? 0;
  let sentiment: ReplySentiment = pos > neg ? "positive" : neg > pos ? "negative" : "neutral";
  // The intent settles ties the word counts cannot.
  if (intent === "opt_out_like" || intent === "not_interested") sentiment = "negative";
  else if (sentiment === "neutral" && (intent === "interested" || intent === "appointment_request"))
    sentiment = "positive";
  // A lexicon is sure only of short, unambiguous texts.
  const confidence = intent === "other" ? 35 : Math.min(95, 60 + hits * 10 + (t.length <= 60 ? 15 : 0));
  return { intent, sentiment, confidence };
}

export async function classifyReply(
  deps: ClassifyDeps,
  text: string,
  opts: ClassifyOptions = {},
): Promise<ReplyClassification> {
  const started = Date.now();
  const { value, provider } = await runChain(deps, {
    kind: "classify-reply",
    prompt: classifyReplyPrompt(text),
    schema: answerSchema,
    offline: () => classifyByLexicon(text),
  });
  const analysisMs = Math.max(0, Date.now() - started);
  let id: number | null = null;
  if (opts.record !== false) {
    const [row] = await deps.db
      .insert(aiClassifications)
      .values({
        messageId: opts.messageId ?? null,
        textPreview: text.slice(0, 160),
        intent: value.intent,
        sentiment: value.sentiment,
        confidence: value.confidence,
        provider,
        analysisMs,
        createdAt: (deps.clock ?? systemClock)(),
      })
      .returning({ id: aiClassifications.id });
    id = row.id;
  }
  return { ...value, provider, analysisMs, id };
}
