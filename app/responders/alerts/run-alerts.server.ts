import { eq, sql } from "drizzle-orm";
import { inJson } from "~/db/bulk-update.server";
import { alertProfiles, alerts, keywordBanks, type AlertCategory } from "~/db/schema";
import { HELD, type CapLimits } from "~/caps/caps";
import { hitNamedCap } from "~/caps/hit-cap.server";
import { loadCapLimits } from "~/caps/load-cap-limits.server";
import { recordHeld } from "~/caps/record-held.server";
import { createOutboundMessages, type OutboundInput } from "~/messaging/create-outbound-messages.server";
import { matchKeywords } from "~/responders/match";
import { quoteText, type ReplyClassification, type ReplyDeps } from "~/responders/reply-deps";
import { parseContactInfo, PRIORITY_RANK, type BankInput, type ProfileInput } from "./alert-schema";
import { capAlertEmails, DEFAULT_OWNER_ESCALATION_MINUTES, routeAlertToOwner } from "./route-alert-to-owner.server";

/** An active alert profile as the matcher reads it (the stored contact info may be empty). */
type ProfileRule = Omit<ProfileInput, "isActive" | "contactInfo"> & { id: number; contactInfo: string | null };
/** An active keyword bank as the matcher reads it: its settings and id. */
type BankRule = Omit<BankInput, "isActive"> & { id: number };

/** The classifier intents (app/ai) a keyword bank with useAI stands for, by its category. */
const BANK_INTENTS: Record<string, string[]> = {
  "Lead Qualification": ["interested"],
  "Pricing Concerns": ["pricing_question"],
  "Installation Questions": [],
  "Savings Inquiry": ["pricing_question"],
  "Objection Handling": ["objection", "not_interested"],
  Scheduling: ["appointment_request"],
};
const MAX_RULES = 200;

export type AlertEvaluation = {
  banks: Array<{
    id: number;
    category: string;
    priority: string;
    keywords: string[];
    byAi: boolean;
    autoResponse: string | null;
  }>;
  profiles: Array<{
    id: number;
    name: string;
    department: string;
    priority: string;
    keywords: string[];
    email: string | null;
    escalationTime: number;
    ownerEscalationMinutes: number;
  }>;
  priority: string | null;
  category: AlertCategory | null;
  classification: ReplyClassification | null;
};

/** The category of an alert: the classifier's intent first, then the banks' categories, then the priority. */
export function categorize(intent: string | null, bankCategories: string[], priority: string | null): AlertCategory {
  if (intent === "appointment_request" || bankCategories.includes("Scheduling")) return "appointment request";
  if (intent === "objection" || intent === "not_interested" || bankCategories.includes("Objection Handling"))
    return "objection";
  if (intent === "pricing_question") return "information request";
  if (
    intent === "interested" ||
    bankCategories.includes("Lead Qualification") ||
    (priority && PRIORITY_RANK[priority] >= PRIORITY_RANK.high)
  ) {
    return "high-priority lead";
  }
  return "information request";
}

/** Which active banks and profiles a text matches (keywords as whole words; useAI banks also by intent). */
export async function evaluateAlert(
  deps: Pick<ReplyDeps, "db">,
  text: string,
  classify: () => Promise<ReplyClassification> | null,
): Promise<AlertEvaluation> {
  const { db } = deps;
  const [banks, profiles] = await Promise.all([
    db
      .select({
        id: keywordBanks.id,
        category: keywordBanks.category,
        keywords: keywordBanks.keywords,
        priority: keywordBanks.priority,
        alertProfileId: keywordBanks.alertProfileId,
        autoResponse: keywordBanks.autoResponse,
        useAi: keywordBanks.useAi,
        aiPrompt: keywordBanks.aiPrompt,
      })
      .from(keywordBanks)
      .where(eq(keywordBanks.isActive, true))
      .orderBy(keywordBanks.id)
      .limit(MAX_RULES),
    db
      .select({
        id: alertProfiles.id,
        name: alertProfiles.name,
        department: alertProfiles.department,
        keywords: alertProfiles.keywords,
        contactInfo: alertProfiles.contactInfo,
        priority: alertProfiles.priority,
        escalationTime: alertProfiles.escalationTime,
        ownerEscalationMinutes: alertProfiles.ownerEscalationMinutes,
        responseTemplate: alertProfiles.responseTemplate,
      })
      .from(alertProfiles)
      .where(eq(alertProfiles.isActive, true))
      .orderBy(alertProfiles.id)
      .limit(MAX_RULES),
  ]);
  const bankRules: BankRule[] = banks.map((b) => ({ ...b, keywords: b.keywords ?? [] }));
  const profileRules: ProfileRule[] = profiles.map((p) => ({ ...p, keywords: p.keywords ?? [] }));
  const ai = bankRules.length + profileRules.length > 0 ? ((await classify()) ?? null) : null;

  const matchedBanks: AlertEvaluation["banks"] = [];
  for (const b of bankRules) {
    const hits = matchKeywords(text, b.keywords);
    const byAi = hits.length === 0 && b.useAi && !!ai && (BANK_INTENTS[b.category] ?? []).includes(ai.intent);
    if (hits.length || byAi)
      matchedBanks.push({
        id: b.id,
        category: b.category,
        priority: b.priority,
        keywords: hits,
        byAi,
        autoResponse: b.autoResponse,
      });
  }
  const linked = new Set(
    matchedBanks
      .map((b) => bankRules.find((r) => r.id === b.id)!.alertProfileId)
      .filter((id): id is number => id !== null),
  );
  const matchedProfiles: AlertEvaluation["profiles"] = [];
  for (const p of profileRules) {
    const hits = matchKeywords(text, p.keywords);
    if (!hits.length && !linked.has(p.id)) continue;
    let email: string | null = null;
    try {
      email = parseContactInfo(p.contactInfo).email;
    } catch {
      email = null; // a stored address the form would refuse today: no email to it, the sales address gets the alert
    }
    matchedProfiles.push({
      id: p.id,
      name: p.name,
      department: p.department,
      priority: p.priority,
      keywords: hits,
      email,
      escalationTime: p.escalationTime,
      ownerEscalationMinutes: p.ownerEscalationMinutes,
    });
  }
  const all = [...matchedBanks.map((b) => b.priority), ...matchedProfiles.map((p) => p.priority)];
  const priority = all.length
    ? all.reduce((a, b) => ((PRIORITY_RANK[b] ?? 0) > (PRIORITY_RANK[a] ?? 0) ? b : a))
    : null;
  const category = all.length
    ? categorize(
        ai?.intent ?? null,
        matchedBanks.map((b) => b.category),
        priority,
      )
    : null;
  const byRank = <T extends { priority: string }>(xs: T[]) =>
    [...xs].sort((a, b) => (PRIORITY_RANK[b.priority] ?? 0) - (PRIORITY_RANK[a.priority] ?? 0));
  return { banks: byRank(matchedBanks), profiles: byRank(matchedProfiles), priority, category, classification: ai };
}

export type AlertSource = {
  inboundId: number | null;
  contactId: number | null;
  phone: string | null;
  content: string;
  name: string | null;
  isTest?: boolean;
};

/** The alert email's text: the reply (escaped when rendered as HTML by the email pipeline), who sent it, a link. */
export function alertEmail(deps: Pick<ReplyDeps, "config">, src: AlertSource, ev: AlertEvaluation) {
  const who = src.name || src.phone || "Test contact";
  const link = src.contactId
    ? `${deps.config.publicBaseUrl}/contacts/${src.contactId}`
    : `${deps.config.publicBaseUrl}/messages`;
  const subject = `${src.isTest ? "[Test] " : ""}Smart alert (${ev.priority}): ${ev.category} from ${who}`;
  const lines = [
    `${who}${src.phone && src.name ? ` (${src.phone})` : ""} wrote:`,
    "",
    quoteText(src.content),
    "",
    `Priority: ${ev.priority}`,
    `Category: ${ev.category}`,
    ev.banks.length
      ? `Keyword banks: ${ev.banks.map((b) => `${b.category}${b.byAi ? " (AI)" : ` (${b.keywords.join(", ")})`}`).join("; ")}`
      : null,
    ev.profiles.length ? `Alert profiles: ${ev.profiles.map((p) => `${p.name} — ${p.department}`).join("; ")}` : null,
    ev.classification
      ? `Classifier: ${ev.classification.intent}, ${ev.classification.sentiment}, ${ev.classification.confidence}% confidence`
      : null,
    "",
    `Open the conversation: ${link}`,
  ];
  return { subject, content: lines.filter((l) => l !== null).join("\n") };
}

export type AlertOutcome = { alertId: number; emails: string[]; autoResponse: string | null; created: number[] } | null;

/**
 * Smart alerts for one new inbound reply: matched banks and profiles, the highest priority and a category, one
 * alert row (unique per inbound message: a redelivery alerts nobody twice), the profiles' staff emailed, the
 * bank's autoResponse sent unless an auto-responder already answered.
 */
export async function runAlerts(
  deps: ReplyDeps,
  src: AlertSource & { inboundId: number },
  classify: () => Promise<ReplyClassification> | null,
  opts: { answered: boolean; limits?: CapLimits },
): Promise<AlertOutcome> {
  const ev = await evaluateAlert(deps, src.content, classify);
  if (!ev.priority || !ev.category) return null;
  if (ev.classification?.intent === "opt_out_like") opts = { ...opts, answered: true }; // alert staff, never auto-answer
  return recordAlert(deps, src, ev, opts);
}

/**
 * The caps on what an inbound alert sends (decision 021): each recipient gets at most `alertEmailPerConversation`
 * emails about one conversation an hour, and the bank's auto-response counts against the number's daily auto-reply
 * cap. Held ones are tallied for Smart Alerts and the Auto Responder screen; the alert row itself is always kept.
 */
async function capAlertOutputs(
  deps: ReplyDeps,
  src: AlertSource,
  alertId: number,
  to: string[],
  autoResponse: string | null,
  limits: CapLimits,
) {
  const conversation = src.phone ?? `contact:${src.contactId ?? "none"}`;
  const emails = await capAlertEmails(deps.db, { conversation, alertId, emails: to, kind: "alert" }, limits, deps.now);
  if (autoResponse && src.phone) {
    const cap = await hitNamedCap(deps.db, "autoReplyPerNumberDay", src.phone, limits, deps.now);
    if (!cap.allowed) {
      await recordHeld(deps.db, HELD.autoReply, src.phone, deps.now, {
        alertId,
        reason: `over ${limits.autoReplyPerNumberDay} auto-replies today`,
      });
      autoResponse = null;
    }
  }
  return { emails, autoResponse };
}

export async function recordAlert(
  deps: ReplyDeps,
  src: AlertSource,
  ev: AlertEvaluation,
  opts: { answered: boolean; to?: string[]; limits?: CapLimits },
): Promise<AlertOutcome> {
  const { db, now, queue } = deps;
  const t = now.getTime();
  const escalationMinutes = ev.profiles.length ? Math.min(...ev.profiles.map((p) => p.escalationTime)) : 15;
  const ai = ev.classification;
  const { priority, category } = ev;
  if (priority === null || category === null) throw new Error("recordAlert: the evaluation matched nothing"); // callers check first
  const profileEmails = ev.profiles.map((p) => p.email).filter((e): e is string => !!e);
  let to = [
    ...new Set(
      (
        opts.to ??
        (profileEmails.length ? profileEmails : deps.config.salesAlertEmail ? [deps.config.salesAlertEmail] : [])
      ).map((e) => e.toLowerCase()),
    ),
  ];
  // Owner first (decision 050): an owned contact's owner now, the profile's recipients after its delay.
  const owner =
    opts.to || src.isTest
      ? null
      : await routeAlertToOwner(db, {
          contactId: src.contactId,
          profileTo: to,
          delayMinutes: ev.profiles.length
            ? Math.min(...ev.profiles.map((p) => p.ownerEscalationMinutes))
            : DEFAULT_OWNER_ESCALATION_MINUTES,
          now,
        });
  if (owner) to = owner.now;
  const inserted = await db
    .insert(alerts)
    .values({
      inboundMessageId: src.inboundId,
      contactId: src.contactId,
      phone: src.phone,
      content: src.content,
      profileId: ev.profiles[0]?.id ?? null,
      bankIds: ev.banks.map((b) => b.id),
      profileIds: ev.profiles.map((p) => p.id),
      priority,
      category,
      intent: ai?.intent ?? null,
      sentiment: ai?.sentiment ?? null,
      confidence: ai?.confidence ?? null,
      analysisMs: ai?.analysisMs ?? null,
      classificationId: ai?.id ?? null,
      status: "unacknowledged",
      escalationDueAt: src.isTest ? null : new Date(t + escalationMinutes * 60_000),
      isTest: !!src.isTest,
      ownerUserId: owner?.ownerUserId ?? null,
      deferredTo: owner?.deferredTo ?? null,
      deferredDueAt: owner?.deferredDueAt ?? null,
      createdAt: now,
    })
    .onConflictDoNothing({ target: alerts.inboundMessageId })
    .returning({ id: alerts.id });
  const alertId = inserted[0]?.id;
  if (!alertId) return null; // replay: this inbound already alerted
  if (ev.banks.length) {
    await db
      .update(keywordBanks)
      .set({ triggerCount: sql`${keywordBanks.triggerCount} + 1` })
      .where(
        inJson(
          keywordBanks.id,
          ev.banks.map((b) => b.id),
        ),
      );
  }
  let autoResponse = !opts.answered && src.phone ? (ev.banks.find((b) => b.autoResponse)?.autoResponse ?? null) : null;
  // Test alerts are capped per user before they get here (run-test-alert).
  if (opts.limits && !src.isTest)
    ({ emails: to, autoResponse } = await capAlertOutputs(deps, src, alertId, to, autoResponse, opts.limits));
  const { subject, content } = alertEmail(deps, src, ev);
  const outputs: OutboundInput[] = to.map((email) => ({
    channel: "email",
    kind: "alert",
    email,
    subject,
    content,
    idempotencyKey: `alert:${alertId}:${email}`,
  }));
  if (autoResponse && src.inboundId) {
    outputs.push({
      channel: "sms",
      kind: "auto_reply",
      phone: src.phone,
      contactId: src.contactId,
      content: autoResponse,
      idempotencyKey: `alert-auto:${src.inboundId}`,
    });
  }
  const created = outputs.length ? await createOutboundMessages(db, queue, outputs, now) : [];
  return { alertId, emails: to, autoResponse, created };
}

/**
 * Cron task: unacknowledged alerts past their profile's escalationTime go again to the escalation address — at most
 * `alertEmailPerConversation` an hour per conversation (a loop's thirty alerts are one escalation email).
 */
export async function escalateDueAlerts(deps: Omit<ReplyDeps, "classify">, limit = 100) {
  const { db, now, queue } = deps;
  const due = await db
    .select({
      id: alerts.id,
      content: alerts.content,
      phone: alerts.phone,
      contactId: alerts.contactId,
      priority: alerts.priority,
      category: alerts.category,
      createdAt: alerts.createdAt,
    })
    .from(alerts)
    // Literal: alerts_escalation_due_idx is partial on the same WHERE.
    .where(
      sql`${alerts.status} = 'unacknowledged' AND ${alerts.escalatedAt} IS NULL AND ${alerts.escalationDueAt} <= ${now.getTime()}`,
    )
    .orderBy(alerts.escalationDueAt)
    .limit(limit);
  const to = deps.config.salesAlertEmail;
  if (!due.length || !to) return { escalated: 0 };
  const limits = await (deps.capLimits ?? (() => loadCapLimits(db)))();
  const sendable: typeof due = [];
  for (const a of due) {
    const conversation = a.phone ?? `contact:${a.contactId ?? "none"}`;
    const cap = await hitNamedCap(db, "alertEmailPerConversation", `${conversation}:escalation`, limits, now);
    if (cap.allowed) sendable.push(a);
    else await recordHeld(db, HELD.alertEmail, conversation, now, { alertId: a.id, kind: "escalation" });
  }
  const outputs: OutboundInput[] = sendable.map((a) => {
    const link = a.contactId
      ? `${deps.config.publicBaseUrl}/contacts/${a.contactId}`
      : `${deps.config.publicBaseUrl}/alerts`;
    return {
      channel: "email",
      kind: "alert",
      email: to,
      subject: `Escalated: unacknowledged ${a.priority} alert (${a.category})`,
      content: `Nobody has acknowledged this alert since ${a.createdAt.toISOString()}.\n\n${a.phone ?? "A contact"} wrote:\n\n${quoteText(a.content)}\n\nOpen the conversation: ${link}\nAcknowledge it: ${deps.config.publicBaseUrl}/alerts`,
      idempotencyKey: `alert-escalation:${a.id}`,
    };
  });
  if (outputs.length) await createOutboundMessages(db, queue, outputs, now);
  await db
    .update(alerts)
    .set({ escalatedAt: now })
    .where(
      inJson(
        alerts.id,
        due.map((a) => a.id),
      ),
    );
  return { escalated: sendable.length, held: due.length - sendable.length };
}
