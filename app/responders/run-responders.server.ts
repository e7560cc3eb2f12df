import { and, count, desc, eq, lt, max, sql } from "drizzle-orm";
import { alias } from "drizzle-orm/sqlite-core";
import { inJson } from "~/db/bulk-update.server";
import { autoResponders, messages, responderTriggers } from "~/db/schema";
import { HELD, type CapLimits } from "~/caps/caps";
import { hitNamedCap } from "~/caps/hit-cap.server";
import { recordHeld } from "~/caps/record-held.server";
import { createOutboundMessages, type OutboundInput } from "~/messaging/create-outbound-messages.server";
import type { LoopReason } from "./check-loop-guard.server";
import type { Responder } from "./responder-row.server";
import { matchKeywords, isBusinessHours, timeAllows } from "./match";
import { DEFAULT_RESPONDER, type ResponderInput } from "./responder-schema";
import { quoteText, type ReplyClassification, type ReplyDeps } from "./reply-deps";

export type InboundRow = {
  id: number;
  phone: string;
  contactId: number | null;
  content: string;
  createdAt: number;
  firstName: string | null;
  lastName: string | null;
};

/** The intent (app/ai) each responder category answers, for intent_detection and smart_matching. */
const CATEGORY_INTENT: Record<string, string> = {
  solar_inquiry: "interested",
  pricing_request: "pricing_question",
  appointment_booking: "appointment_request",
  support_ticket: "other",
  general_inquiry: "other",
};
const AI_TRIGGERS = new Set(["sentiment_analysis", "intent_detection", "smart_matching"]);
const MAX_ACTIVE = 200;

/** The stored responder with the SPEC §9 defaults under anything missing. */
export function settingsOf(r: Responder): ResponderInput {
  const d = DEFAULT_RESPONDER;
  const s = (r.scheduling ?? {}) as Partial<ResponderInput["scheduling"]>;
  return {
    ...d,
    name: r.name,
    category: r.category as ResponderInput["category"],
    triggerType: r.triggerType as ResponderInput["triggerType"],
    keywords: r.keywords,
    isActive: r.isActive,
    conditions: { ...d.conditions, ...(r.conditions as object) },
    aiSettings: { ...d.aiSettings, ...(r.aiSettings as object) },
    responses: { ...d.responses, ...(r.responses as object) },
    escalation: { ...d.escalation, ...(r.escalation as object) },
    scheduling: { ...d.scheduling, ...s, delays: { ...d.scheduling.delays, ...(s.delays ?? {}) } },
    analytics: { ...d.analytics, ...(r.analytics as object) },
  };
}

export type Candidate = { responder: Responder; settings: ResponderInput; score: number };

/**
 * Does responder `r` answer this text? Pure apart from the inputs: `ai` is the classification (null when no
 * classifier), `hasHistory` whether the number wrote before. Returns a score (higher wins) or null.
 */
export function scoreResponder(
  s: ResponderInput,
  input: { text: string; at: Date; ai: ReplyClassification | null; hasHistory: boolean },
): number | null {
  const tz = s.scheduling.timezone;
  if (s.scheduling.businessHours && !isBusinessHours(input.at, tz)) return null;
  if (!timeAllows(s.conditions.timeOfDay, input.at, tz)) return null;
  if (s.conditions.previousInteractions === "first_contact" && input.hasHistory) return null;
  if (s.conditions.previousInteractions === "returning" && !input.hasHistory) return null;
  const ai = input.ai;
  if (s.conditions.sentiment !== "any" && (!ai || ai.sentiment !== s.conditions.sentiment)) return null;
  const confident = !!ai && ai.confidence >= s.conditions.confidence;
  const keywordHits = matchKeywords(input.text, s.keywords).length;
  const intentHit = confident && ai!.intent === CATEGORY_INTENT[s.category];
  switch (s.triggerType) {
    case "keyword_match":
      return keywordHits > 0 ? 3000 + keywordHits : null;
    case "smart_matching":
      return keywordHits > 0 || intentHit ? 2000 + keywordHits * 10 + (ai?.confidence ?? 0) : null;
    case "intent_detection":
      return intentHit ? 1000 + ai!.confidence : null;
    case "sentiment_analysis":
      // The sentiment condition (checked above) is the trigger; "any" answers any confident classification.
      return confident ? 1000 + ai!.confidence : null;
    case "time_based":
      return 500; // the time conditions above are the trigger
    default:
      return null;
  }
}

/** `held`: why the loop guard kept the SMS back (a cap, or a text that reads like an auto-reply); null = answered. */
export type ResponderOutcome = {
  responderId: number;
  created: number[];
  escalated: boolean;
  held: string | null;
} | null;

/** The loop guard's inputs for one inbound text (issue 23): the organisation's caps and the text's own verdict. */
export type ReplyGuard = { limits: CapLimits; loop: LoopReason | null };

/**
 * Auto-responders for one new inbound message: the best matching active responder answers with its primary
 * response after the immediate delay and queues its follow-up (marketing: quiet hours hold it). Idempotency keys
 * derive from the inbound message, so a replayed webhook or a redelivered job never answers twice. The loop guard
 * holds the SMS when the text reads like an auto-reply or the number's caps are spent (decision 021).
 */
export async function runResponders(
  deps: ReplyDeps,
  msg: InboundRow,
  classify: () => Promise<ReplyClassification> | null,
  guard: ReplyGuard,
): Promise<ResponderOutcome> {
  const { db, now } = deps;
  // The contact wrote again: earlier inbound messages' pending follow-ups give way.
  const t = responderTriggers;
  await db
    .update(messages)
    .set({ status: "skipped", errorMessage: "Cancelled: the contact wrote again", updatedAt: now })
    .where(
      and(
        sql`${messages.idempotencyKey} IN ${db
          .select({ key: sql`'auto:' || ${t.inboundMessageId} || ':' || ${t.responderId} || ':followup'` })
          .from(t)
          .where(and(eq(t.phone, msg.phone), lt(t.inboundMessageId, msg.id)))}`,
        // Unary + keeps the backlog index from driving: the idempotency key's index reads just these rows.
        sql`+${messages.status} = 'pending'`,
        sql`${messages.kind} = 'auto_followup'`,
      ),
    );

  const responders: Responder[] = await db
    .select()
    .from(autoResponders)
    .where(eq(autoResponders.isActive, true))
    .orderBy(autoResponders.id)
    .limit(MAX_ACTIVE);
  if (!responders.length) return null;
  const parsed = responders.map((row) => ({
    responder: { ...row, keywords: row.keywords ?? [] },
    settings: settingsOf(row),
  }));

  const at = new Date(msg.createdAt);
  // The opt-out-like check needs the classifier whenever one is wired; a text the loop guard refuses is never
  // answered, so it costs no model call here (keyword and time responders still say whether one was held).
  const ai = guard.loop ? null : ((await classify()) ?? null);
  if (ai?.intent === "opt_out_like") return null; // never auto-answer someone asking to be left alone
  // The literal direction matches messages_phone_conversation_idx's WHERE (a bound value could not use the partial index).
  const earlier = await db
    .select({ id: messages.id })
    .from(messages)
    .where(and(eq(messages.phone, msg.phone), sql`${messages.direction} = 'inbound'`, lt(messages.id, msg.id)))
    .orderBy(desc(messages.id))
    .limit(1)
    .get();
  const hasHistory = earlier !== undefined;

  let best: Candidate | null = null;
  for (const c of parsed) {
    if (AI_TRIGGERS.has(c.settings.triggerType) && !ai) continue;
    const score = scoreResponder(c.settings, { text: msg.content, at, ai, hasHistory });
    if (score !== null && (!best || score > best.score)) best = { ...c, score };
  }
  if (!best) return null;
  if (guard.loop) {
    await recordHeld(deps.db, HELD.autoReply, msg.phone, deps.now, {
      responderId: best.responder.id,
      inboundId: msg.id,
      reason: guard.loop,
    });
    return { responderId: best.responder.id, created: [], escalated: false, held: guard.loop };
  }
  return answer(deps, msg, best, ai, guard.limits);
}

/** Why this number may not get another auto-reply now (a spent cap), or null; counts the answer when it may. */
async function autoReplyCap(
  deps: ReplyDeps,
  responderId: number,
  phone: string,
  limits: CapLimits,
): Promise<string | null> {
  const perResponder = await hitNamedCap(deps.db, "autoReplyPerResponder", `${responderId}:${phone}`, limits, deps.now);
  if (!perResponder.allowed) return `over ${limits.autoReplyPerResponder} per 12 hours from this responder`;
  const perDay = await hitNamedCap(deps.db, "autoReplyPerNumberDay", phone, limits, deps.now);
  return perDay.allowed ? null : `over ${limits.autoReplyPerNumberDay} auto-replies today`;
}

async function answer(
  deps: ReplyDeps,
  msg: InboundRow,
  best: Candidate,
  ai: ReplyClassification | null,
  limits: CapLimits,
): Promise<ResponderOutcome> {
  const { db, now, queue } = deps;
  const r = best.responder;
  const s = best.settings;
  const t = now.getTime();
  const inserted = await db
    .insert(responderTriggers)
    .values({
      responderId: r.id,
      inboundMessageId: msg.id,
      phone: msg.phone,
      inboundAt: new Date(msg.createdAt),
      escalated: false,
      createdAt: now,
    })
    .onConflictDoNothing({ target: [responderTriggers.inboundMessageId, responderTriggers.responderId] })
    .returning({ id: responderTriggers.id });
  const triggerId = inserted[0]?.id ?? null;
  // A replayed message: its first run answered (or held) it; the caps are not counted twice.
  if (triggerId === null) return { responderId: r.id, created: [], escalated: false, held: null };

  // Escalation: this number has triggered the responder `threshold` times since the last person's reply (and
  // since the last escalation) — the alert addresses are emailed after `delay` minutes.
  let escalated = false;
  if (s.escalation.enabled) {
    const tr = responderTriggers;
    const e = alias(responderTriggers, "e");
    const lastEscalation = db
      .select({ id: max(e.id) })
      .from(e)
      .where(and(eq(e.responderId, r.id), eq(e.phone, msg.phone), eq(e.escalated, true)));
    // The kinds are literal so that messages_phone_conversation_idx (partial, on those kinds) serves it.
    const lastHumanReply = db
      .select({ at: messages.createdAt })
      .from(messages)
      .where(
        and(
          eq(messages.phone, msg.phone),
          sql`${messages.kind} IN ('individual', 'quick', 'reply')`,
          sql`${messages.direction} = 'outbound'`,
        ),
      )
      .orderBy(desc(messages.id))
      .limit(1);
    const row = await db
      .select({ n: count() })
      .from(tr)
      .where(
        and(
          eq(tr.responderId, r.id),
          eq(tr.phone, msg.phone),
          sql`${tr.id} > coalesce(${lastEscalation}, 0)`,
          sql`${tr.inboundAt} > coalesce(${lastHumanReply}, 0)`,
        ),
      )
      .get();
    if ((row?.n ?? 0) >= s.escalation.threshold) {
      escalated = true;
      await db.update(responderTriggers).set({ escalated: true }).where(eq(responderTriggers.id, triggerId));
    }
  }

  const held = await autoReplyCap(deps, r.id, msg.phone, limits);
  if (held)
    await recordHeld(db, HELD.autoReply, msg.phone, now, { responderId: r.id, inboundId: msg.id, reason: held });

  const firstName = msg.firstName;
  let primary = held ? "" : s.responses.primary;
  if (primary && escalated && s.responses.escalation) primary = s.responses.escalation;
  if (primary && s.aiSettings.useAI && deps.draft) {
    try {
      const drafted = await deps.draft({
        inbound: msg.content,
        written: primary,
        style: s.aiSettings.responseStyle,
        maxLength: s.aiSettings.maxLength,
        firstName,
      });
      if (drafted.text.trim()) primary = drafted.text.trim().slice(0, s.aiSettings.maxLength);
      if (drafted.refused.length) {
        await recordHeld(db, HELD.aiDraft, msg.phone, now, {
          responderId: r.id,
          inboundId: msg.id,
          refused: drafted.refused.slice(0, 5),
        });
      }
    } catch (err) {
      console.warn("auto-responder draft failed; the written response is used", err);
    }
  }
  const base = `auto:${msg.id}:${r.id}`;
  const outputs: OutboundInput[] = [];
  if (primary) {
    outputs.push({
      channel: "sms",
      kind: "auto_reply",
      phone: msg.phone,
      contactId: msg.contactId,
      content: primary,
      idempotencyKey: `${base}:primary`,
      scheduledAt: new Date(t + s.scheduling.delays.immediate * 1000),
    });
  }
  if (s.responses.followUp && !escalated && !held) {
    outputs.push({
      channel: "sms",
      kind: "auto_followup",
      phone: msg.phone,
      contactId: msg.contactId,
      content: s.responses.followUp,
      idempotencyKey: `${base}:followup`,
      scheduledAt: new Date(t + s.scheduling.delays.followUp * 60_000),
    });
  }
  let emailsHeld = false;
  if (escalated) {
    // One escalation email per conversation per responder per hour at most (a loop escalates every few texts).
    const cap = await hitNamedCap(db, "alertEmailPerConversation", `${msg.phone}:responder:${r.id}`, limits, now);
    if (!cap.allowed) {
      emailsHeld = true;
      await recordHeld(db, HELD.alertEmail, msg.phone, now, {
        responderId: r.id,
        inboundId: msg.id,
        kind: "escalation",
      });
    }
  }
  if (escalated && !emailsHeld) {
    const to = s.escalation.alertEmails.length
      ? s.escalation.alertEmails
      : deps.config.salesAlertEmail
        ? [deps.config.salesAlertEmail]
        : [];
    const who = [msg.firstName, msg.lastName].filter(Boolean).join(" ") || msg.phone;
    const link = msg.contactId
      ? `${deps.config.publicBaseUrl}/contacts/${msg.contactId}`
      : `${deps.config.publicBaseUrl}/messages`;
    for (const email of to) {
      outputs.push({
        channel: "email",
        kind: "alert",
        email,
        subject: `Auto-responder escalation: ${r.name}`,
        content:
          `${who} (${msg.phone}) has triggered the auto-responder "${r.name}" ${s.escalation.threshold} time(s) without a reply from the team.\n\n` +
          `Latest message:\n${quoteText(msg.content)}\n\n` +
          (ai ? `Classifier: ${ai.intent}, ${ai.sentiment}, ${ai.confidence}% confidence\n\n` : "") +
          `Open the conversation: ${link}`,
        idempotencyKey: `${base}:escalation:${email.toLowerCase()}`,
        scheduledAt: new Date(t + s.escalation.delay * 60_000),
      });
    }
  }
  const created = outputs.length ? await createOutboundMessages(db, queue, outputs, now) : [];
  // responseCount counts replies actually created for the contact (never twice for a replayed message).
  const createdPrimary = await db
    .select({ n: count() })
    .from(messages)
    .where(and(eq(messages.idempotencyKey, `${base}:primary`), inJson(messages.id, created)))
    .get();
  if ((createdPrimary?.n ?? 0) > 0) {
    await db
      .update(autoResponders)
      .set({ responseCount: sql`${autoResponders.responseCount} + 1` })
      .where(eq(autoResponders.id, r.id));
  }
  return { responderId: r.id, created, escalated, held };
}
