import { and, eq } from "drizzle-orm";
import { alias } from "drizzle-orm/sqlite-core";
import type { Db } from "~/db/client.server";
import {
  alerts,
  contacts,
  conversationNotes,
  linkClicks,
  messages,
  noteMentions,
  pushPreferences,
  pushSubscriptions,
  users,
} from "~/db/schema";
import { conversationPathOf } from "~/lib/conversation-path";
import { HELD, type CapLimits } from "~/caps/caps";
import { hitNamedCap } from "~/caps/hit-cap.server";
import { loadCapLimits } from "~/caps/load-cap-limits.server";
import { recordHeld } from "~/caps/record-held.server";
import { normalizePhone } from "~/contacts/phone";
import type { JobQueue } from "~/lib/job-queue";
import type { PushJob, PushNotification } from "~/jobs/jobs";
import { createOutboundMessages } from "~/messaging/create-outbound-messages.server";
import type { PushConfig } from "./push-config";
import { MAX_PUSH_SUBSCRIPTIONS } from "./push-schema";

export type PushDeps = {
  db: Db;
  queue: JobQueue;
  now: Date;
  /** null: push is off (no VAPID keys); hot leads still fall back to a text. */
  config: PushConfig | null;
  publicBaseUrl: string;
  fetch: typeof fetch;
  capLimits?: () => Promise<CapLimits>;
};

/** Alerts that are hot leads: the category the alert engine gives interest, or a high/critical priority. */
export function isHotLead(a: { priority: string; category: string }) {
  return a.category === "high-priority lead" || a.priority === "high" || a.priority === "critical";
}

const PREVIEW_CHARS = 80;
/** Only what the rep needs on a lock screen: the contact's name (or the number's last digits) and a short preview. */
function describe(c: { firstName: string | null; lastName: string | null; phone: string | null }, text: string) {
  const name = [c.firstName, c.lastName].filter(Boolean).join(" ").trim();
  const who = name || (c.phone ? `…${c.phone.replace(/\D/g, "").slice(-4)}` : "A contact");
  const flat = text.replace(/\s+/g, " ").trim();
  return { who, preview: flat.length > PREVIEW_CHARS ? `${flat.slice(0, PREVIEW_CHARS - 1)}…` : flat };
}

/** The contact's side of both events (an inner join): its name for the lock screen and its owner (decision 044). */
const CONTACT_SIDE = {
  contactId: contacts.id,
  firstName: contacts.firstName,
  lastName: contacts.lastName,
  ownerUserId: contacts.ownerUserId,
};

type Recipient = { userId: number; phone: string | null; wants: boolean };

/** The contact's owner (decision 044), if active, and whether they want this kind of push. */
async function ownerOf(db: Db, ownerUserId: number | null, kind: "hotLeads" | "replies"): Promise<Recipient | null> {
  if (ownerUserId === null) return null;
  const row = await db
    .select({
      id: users.id,
      phone: users.phone,
      isActive: users.isActive,
      hotLeads: pushPreferences.hotLeads,
      replies: pushPreferences.replies,
    })
    .from(users)
    .leftJoin(pushPreferences, eq(pushPreferences.userId, users.id))
    .where(eq(users.id, ownerUserId))
    .get();
  if (!row?.isActive) return null;
  return { userId: row.id, phone: row.phone, wants: row[kind] ?? true };
}

/**
 * The `push` job's notification kinds: work out who hears of the event and send it to each of their subscribed
 * browsers as `deliver` jobs — at most `pushPerUser` notifications per user per hour (decision 021; a retry of a
 * delivery is not a new notification). A hot lead whose owner has no subscription (or push is off) is texted to
 * the owner's own phone instead, through the staff-alert path (an `alert` SMS), at most `alertSmsPerUser` an hour.
 */
export async function notifyPush(
  deps: PushDeps,
  event: Extract<PushJob["event"], { kind: "hot-lead" | "reply" | "bill" | "mention" | "link-click" }>,
) {
  const { db } = deps;
  if (event.kind === "mention") return notifyMention(deps, event);
  if (event.kind === "link-click") return notifyLinkClick(deps, event.clickId);
  if (event.kind === "reply" || event.kind === "bill") {
    if (!deps.config) return { sent: 0 };
    const m = await db
      .select({ ...CONTACT_SIDE, direction: messages.direction, content: messages.content, phone: messages.phone })
      .from(messages)
      .innerJoin(contacts, eq(contacts.id, messages.contactId))
      .where(eq(messages.id, event.messageId))
      .get();
    if (!m || m.direction !== "inbound") return { sent: 0 };
    const owner = await ownerOf(db, m.ownerUserId, "replies");
    if (!owner?.wants) return { sent: 0 };
    const { who, preview } = describe(m, m.content);
    // The bill's push carries the reply's tag, so it replaces the "Reply from" one the same text raised.
    return fanOut(deps, owner.userId, {
      title: event.kind === "bill" ? `Bill photo from ${who}` : `Reply from ${who}`,
      body: event.kind === "bill" ? "A picture to start the proposal from: open the contact to see it." : preview,
      url: `/contacts/${m.contactId}`,
      tag: `contact-${m.contactId}`,
    });
  }
  const a = await db
    .select({
      ...CONTACT_SIDE,
      content: alerts.content,
      phone: alerts.phone,
      priority: alerts.priority,
      category: alerts.category,
      isTest: alerts.isTest,
    })
    .from(alerts)
    .innerJoin(contacts, eq(contacts.id, alerts.contactId))
    .where(eq(alerts.id, event.alertId))
    .get();
  if (!a || a.isTest || !isHotLead(a)) return { sent: 0 };
  const owner = await ownerOf(db, a.ownerUserId, "hotLeads");
  if (!owner?.wants) return { sent: 0 };
  const { who, preview } = describe(a, a.content);
  const notification: PushNotification = {
    title: `Hot lead: ${who}`,
    body: preview,
    url: `/contacts/${a.contactId}`,
    tag: `contact-${a.contactId}`,
    urgent: true,
  };
  const pushed = deps.config ? await fanOut(deps, owner.userId, notification) : { sent: 0, subscriptions: 0 };
  if (pushed.subscriptions > 0 || !owner.phone) return pushed;
  return textOwner(
    deps,
    owner,
    event.alertId,
    `Helio hot lead: ${who} wrote "${preview}" ${deps.publicBaseUrl}${notification.url}`,
  );
}

/**
 * A contact's first click on a tracked link (decision 068) to the contact's owner, under the hot-leads preference (a
 * homeowner opening the proposal is a buying signal): who, and where the link goes (host and path, no query).
 */
async function notifyLinkClick(deps: PushDeps, clickId: number) {
  if (!deps.config) return { sent: 0 };
  const c = await deps.db
    .select({ ...CONTACT_SIDE, url: linkClicks.url, phone: contacts.phone })
    .from(linkClicks)
    .innerJoin(contacts, eq(contacts.id, linkClicks.contactId))
    .where(eq(linkClicks.id, clickId))
    .get();
  if (!c) return { sent: 0 };
  const owner = await ownerOf(deps.db, c.ownerUserId, "hotLeads");
  if (!owner?.wants) return { sent: 0 };
  const target = new URL(c.url);
  const { who, preview } = describe(c, `${target.host}${target.pathname === "/" ? "" : target.pathname}`);
  return fanOut(deps, owner.userId, {
    title: `${who} opened your link`,
    body: preview,
    url: `/contacts/${c.contactId}`,
    tag: `contact-${c.contactId}`,
  });
}

/**
 * A note's @mention to the mentioned user (still active): who wrote it, about whom, its first words; it opens the
 * conversation. Mentions are asked of a person by name, so no preference turns them off; the hourly cap holds.
 */
async function notifyMention(deps: PushDeps, event: { noteId: number; userId: number }) {
  if (!deps.config) return { sent: 0 };
  const author = alias(users, "author");
  const n = await deps.db
    .select({
      body: conversationNotes.body,
      phone: conversationNotes.phone,
      contactId: conversationNotes.contactId,
      firstName: contacts.firstName,
      lastName: contacts.lastName,
      authorFirst: author.firstName,
      authorEmail: author.email,
      mentioned: noteMentions.userId,
      active: users.isActive,
    })
    .from(noteMentions)
    .innerJoin(conversationNotes, eq(conversationNotes.id, noteMentions.noteId))
    .innerJoin(users, eq(users.id, noteMentions.userId))
    .leftJoin(contacts, eq(contacts.id, conversationNotes.contactId))
    .leftJoin(author, eq(author.id, conversationNotes.authorUserId))
    .where(and(eq(noteMentions.noteId, event.noteId), eq(noteMentions.userId, event.userId)))
    .get();
  if (!n?.active) return { sent: 0 };
  const { who, preview } = describe(
    { firstName: n.firstName ?? null, lastName: n.lastName ?? null, phone: n.phone },
    n.body,
  );
  const by = n.authorFirst || n.authorEmail?.split("@")[0] || "A teammate";
  return fanOut(deps, event.userId, {
    title: `${by} mentioned you on ${who}`,
    body: preview,
    url: conversationPathOf(n),
    tag: `note-${event.noteId}`,
  });
}

async function limitsOf(deps: PushDeps) {
  return (deps.capLimits ?? (() => loadCapLimits(deps.db)))();
}

/** One notification to each of the user's subscriptions, within the user's hourly cap. */
async function fanOut(deps: PushDeps, userId: number, notification: PushNotification) {
  const subs = await deps.db
    .select({ id: pushSubscriptions.id })
    .from(pushSubscriptions)
    .where(eq(pushSubscriptions.userId, userId))
    .limit(MAX_PUSH_SUBSCRIPTIONS);
  if (!subs.length) return { sent: 0, subscriptions: 0 };
  const cap = await hitNamedCap(deps.db, "pushPerUser", `user:${userId}`, await limitsOf(deps), deps.now);
  if (!cap.allowed) {
    await recordHeld(deps.db, HELD.push, `user:${userId}`, deps.now, { kind: "push", limit: cap.limit });
    return { sent: 0, subscriptions: subs.length, held: true };
  }
  await deps.queue.sendBatch(
    subs.map((s) => ({
      body: {
        v: 1,
        type: "push",
        event: { kind: "deliver", subscriptionId: s.id, attempt: 0, notification },
      } satisfies PushJob,
    })),
  );
  return { sent: subs.length, subscriptions: subs.length };
}

/** The fallback for a hot lead: the staff-alert SMS to the owner's own phone (idempotent per alert), capped. */
async function textOwner(deps: PushDeps, owner: Recipient, alertId: number, content: string) {
  const phone = normalizePhone(owner.phone!);
  const cap = await hitNamedCap(deps.db, "alertSmsPerUser", `user:${owner.userId}`, await limitsOf(deps), deps.now);
  if (!cap.allowed) {
    await recordHeld(deps.db, HELD.push, `user:${owner.userId}`, deps.now, { kind: "alert_sms", alertId });
    return { sent: 0, subscriptions: 0, texted: false, held: true };
  }
  const created = await createOutboundMessages(
    deps.db,
    deps.queue,
    [
      {
        channel: "sms",
        kind: "alert",
        phone,
        content: content.slice(0, 320),
        idempotencyKey: `push-sms:alert:${alertId}`,
      },
    ],
    deps.now,
  );
  return { sent: 0, subscriptions: 0, texted: created.length > 0 };
}
