import type { CapLimits } from "~/caps/caps";
import type { Db } from "~/db/client.server";
import type { JobQueue } from "~/lib/job-queue";

/** What the AI classifier (app/ai) says about a reply; `id` is its ai_classifications row. */
export type ReplyClassification = {
  intent: string;
  sentiment: string;
  confidence: number;
  analysisMs: number;
  id: number | null;
  provider?: string;
};
/** `phone`: whose text it is, for the per-number AI allowance (null: a test, counted per user elsewhere). */
export type Classify = ((
  text: string,
  messageId: number | null,
  phone?: string | null,
) => Promise<ReplyClassification>) & {
  /** A model is configured (not only the keyword classifier): its opinion on an opt-out is asked for every reply. */
  hasModel?: boolean;
};
/**
 * Drafts a reply in a style and length (app/ai), when the AI module offers one. `refused`: contact details the
 * model added that nobody wrote — the text is then the written answer (issue 23).
 */
export type DraftReply = (input: {
  inbound: string;
  written: string;
  style: string;
  maxLength: number;
  firstName: string | null;
}) => Promise<{ text: string; refused: string[] }>;

export type AlertConfig = {
  publicBaseUrl: string;
  /** SALES_ALERT_EMAIL: test alerts, escalations, and alerts whose profile has no email. */
  salesAlertEmail: string | null;
};

/** One ordinary reply as the processors see it, for the step after the responders. */
export type ReplySource = {
  inboundId: number;
  contactId: number | null;
  phone: string;
  content: string;
  name: string | null;
};
/**
 * What runs after the auto-responders on each reply (smart alerts, registered in app/wiring): told whether the
 * responders or the loop guard already dealt with it, and handed the same once-per-message classification.
 */
export type AfterResponders = (
  deps: ReplyDeps,
  reply: ReplySource,
  classify: () => Promise<ReplyClassification> | null,
  opts: { answered: boolean; limits: CapLimits },
) => Promise<unknown>;

/** Dependencies of the reply processors (auto-responders and smart alerts). */
export type ReplyDeps = {
  db: Db;
  queue: JobQueue;
  now: Date;
  config: AlertConfig;
  /** null: no classifier wired — AI triggers and AI banks do not match (keyword rules still do). */
  classify: Classify | null;
  draft?: DraftReply | null;
  /** The organisation's cap limits (app/caps), loaded once per batch; the org_settings rows when absent. */
  capLimits?: () => Promise<CapLimits>;
};

/**
 * No defaults: a made-up address would swallow alerts, a loopback origin would put dead links in them. Unset
 * SALES_ALERT_EMAIL = alerts go only to their profile's emails (test alerts say it is missing); unset PUBLIC_BASE_URL =
 * relative links (the local outbox shows them inside the app).
 */
export function alertConfig(env: { PUBLIC_BASE_URL?: string; SALES_ALERT_EMAIL?: string }): AlertConfig {
  return {
    publicBaseUrl: (env.PUBLIC_BASE_URL ?? "").trim().replace(/\/+$/, ""),
    salesAlertEmail: env.SALES_ALERT_EMAIL?.trim() || null,
  };
}

/** Memoises one classification per message for both engines. */
export function onceClassifier(classify: Classify | null) {
  const memo = new Map<number, Promise<ReplyClassification>>();
  return (text: string, messageId: number, phone: string | null = null): Promise<ReplyClassification> | null => {
    if (!classify) return null;
    let p = memo.get(messageId);
    if (!p) memo.set(messageId, (p = classify(text, messageId, phone)));
    return p;
  };
}

/** Quoted user text inside a templated message: template tokens neutralised so they go out literally. */
export function quoteText(s: string) {
  return s.replace(/\{\{/g, "{ {").replace(/#([A-Z_]+)#/g, "# $1 #");
}
