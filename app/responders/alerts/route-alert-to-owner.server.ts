import { and, eq, gt, inArray, isNotNull, lte, sql } from "drizzle-orm";
import { HELD, type CapLimits } from "~/caps/caps";
import { hitNamedCap } from "~/caps/hit-cap.server";
import { loadCapLimits } from "~/caps/load-cap-limits.server";
import { recordHeld } from "~/caps/record-held.server";
import { inJson } from "~/db/bulk-update.server";
import type { Db } from "~/db/client.server";
import { alerts, contacts, messages, users } from "~/db/schema";
import { createOutboundMessages, type OutboundInput } from "~/messaging/create-outbound-messages.server";
import { quoteText, type ReplyDeps } from "~/responders/reply-deps";

// Owner first (issue 27 item 2, decision 050): an owned contact's alert goes to its owner at once; the profile's own
// recipients get it only when no person has answered the contact within the profile's `ownerEscalationMinutes`.

/** A profile's delay when none of the matched ones sets it (a bank matched alone): the column's default. */
export const DEFAULT_OWNER_ESCALATION_MINUTES = 15;
/** A person's texts: what counts as the owner (or anyone) answering the contact. */
const ANSWER_KINDS = ["quick", "individual", "reply"] as const;

export type OwnerRouting = {
  ownerUserId: number;
  /** Who gets the alert now: the owner (and the profile's recipients when the delay is 0). */
  now: string[];
  /** The profile's recipients waiting on the owner, and when they are due (null = nobody waits). */
  deferredTo: string[] | null;
  deferredDueAt: Date | null;
};

/**
 * How an alert about `contactId` is routed: null when the contact has no active owner with an email (then the
 * profile's recipients get it at once, as before); otherwise the owner now and `profileTo` after `delayMinutes`.
 * One primary-key read (the contact joined to its owner).
 */
export async function routeAlertToOwner(
  db: Db,
  input: { contactId: number | null; profileTo: string[]; delayMinutes: number; now: Date },
): Promise<OwnerRouting | null> {
  if (input.contactId === null) return null;
  const owner = await db
    .select({ id: users.id, email: users.email })
    .from(contacts)
    .innerJoin(users, and(eq(users.id, contacts.ownerUserId), eq(users.isActive, true)))
    .where(eq(contacts.id, input.contactId))
    .get();
  if (!owner?.email) return null;
  const ownerEmail = owner.email.toLowerCase();
  const others = input.profileTo.filter((e) => e !== ownerEmail);
  if (input.delayMinutes <= 0 || others.length === 0)
    return { ownerUserId: owner.id, now: [ownerEmail, ...others], deferredTo: null, deferredDueAt: null };
  return {
    ownerUserId: owner.id,
    now: [ownerEmail],
    deferredTo: others,
    deferredDueAt: new Date(input.now.getTime() + input.delayMinutes * 60_000),
  };
}

/**
 * The per-conversation cap on alert emails (decision 021), one recipient at a time: the addresses still allowed;
 * each held one is tallied for Smart Alerts.
 */
export async function capAlertEmails(
  db: Db,
  input: { conversation: string; alertId: number; emails: string[]; kind: string },
  limits: CapLimits,
  now: Date,
) {
  const allowed: string[] = [];
  for (const email of input.emails) {
    const cap = await hitNamedCap(db, "alertEmailPerConversation", `${input.conversation}:${email}`, limits, now);
    if (cap.allowed) allowed.push(email);
    else
      await recordHeld(db, HELD.alertEmail, input.conversation, now, {
        alertId: input.alertId,
        email,
        kind: input.kind,
      });
  }
  return allowed;
}

/** The due read of sendDeferredAlerts (exported for the plan test): the waiting rows through alerts_deferred_due_idx. */
export function dueDeferredAlerts(db: Db, now: Date, limit: number) {
  return db
    .select({
      id: alerts.id,
      inboundMessageId: alerts.inboundMessageId,
      contactId: alerts.contactId,
      phone: alerts.phone,
      content: alerts.content,
      priority: alerts.priority,
      category: alerts.category,
      deferredTo: alerts.deferredTo,
      ownerEmail: users.email,
      createdAt: alerts.createdAt,
    })
    .from(alerts)
    .leftJoin(users, eq(users.id, alerts.ownerUserId))
    .where(and(isNotNull(alerts.deferredDueAt), lte(alerts.deferredDueAt, now)))
    .orderBy(alerts.deferredDueAt)
    .limit(limit);
}

/**
 * Whether a person has texted the contact since its reply (exported for the plan test): the contact's thread after
 * the inbound message through messages_contact_thread_idx (contact_id, id), the first such text ends the read.
 */
export function answeredSince(db: Db, contactId: number, inboundId: number) {
  return db
    .select({ id: messages.id })
    .from(messages)
    .where(
      and(
        eq(messages.contactId, contactId),
        gt(messages.id, inboundId),
        eq(messages.direction, "outbound"),
        inArray(messages.kind, [...ANSWER_KINDS]),
      ),
    )
    .limit(1);
}

/**
 * Cron task: the profile recipients of owner-first alerts whose delay has passed. When a person answered the contact
 * first, nobody more is told ('answered'); otherwise they get the alert ('sent'), each under the per-conversation
 * cap. Reads O(due rows): the partial index, then one short thread seek per alert.
 */
export async function sendDeferredAlerts(deps: Omit<ReplyDeps, "classify">, limit = 100) {
  const { db, now, queue } = deps;
  const due = await dueDeferredAlerts(db, now, limit);
  if (!due.length) return { sent: 0, answered: 0 };
  const limits = await (deps.capLimits ?? (() => loadCapLimits(db)))();
  const answered: number[] = [];
  const sent: number[] = [];
  const outputs: OutboundInput[] = [];
  for (const a of due) {
    if (
      a.contactId !== null &&
      a.inboundMessageId !== null &&
      (await answeredSince(db, a.contactId, a.inboundMessageId).get())
    ) {
      answered.push(a.id);
      continue;
    }
    sent.push(a.id);
    const conversation = a.phone ?? `contact:${a.contactId ?? "none"}`;
    const to = await capAlertEmails(
      db,
      { conversation, alertId: a.id, emails: a.deferredTo ?? [], kind: "alert" },
      limits,
      now,
    );
    const link = a.contactId
      ? `${deps.config.publicBaseUrl}/contacts/${a.contactId}`
      : `${deps.config.publicBaseUrl}/alerts`;
    const owner = a.ownerEmail ?? "The contact's owner";
    for (const email of to)
      outputs.push({
        channel: "email",
        kind: "alert",
        email,
        subject: `Smart alert (${a.priority}): ${a.category} — not answered by the owner`,
        content: `${owner} has not answered since ${a.createdAt.toISOString()}.\n\n${a.phone ?? "A contact"} wrote:\n\n${quoteText(a.content)}\n\nOpen the conversation: ${link}`,
        // The same key as an at-once alert email: a racing tick, or a recipient told already, gets no second one.
        idempotencyKey: `alert:${a.id}:${email}`,
      });
  }
  if (outputs.length) await createOutboundMessages(db, queue, outputs, now);
  const settle = (ids: number[], outcome: "sent" | "answered") =>
    db
      .update(alerts)
      .set({ deferredDueAt: null, deferredOutcome: outcome })
      .where(and(inJson(alerts.id, ids), sql`${alerts.deferredDueAt} IS NOT NULL`));
  if (answered.length) await settle(answered, "answered");
  if (sent.length) await settle(sent, "sent");
  return { sent: sent.length, answered: answered.length };
}
