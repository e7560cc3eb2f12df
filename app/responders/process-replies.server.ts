import { and, eq, isNotNull, sql } from "drizzle-orm";
import { inJson } from "~/db/bulk-update.server";
import { contacts, messages } from "~/db/schema";
import { capLimitsLoader } from "~/caps/load-cap-limits.server";
import { classifyInbound } from "~/messaging/keywords";
import { isClassifierOptOut, optOutByClassifier } from "~/messaging/opt-out-by-classifier.server";
import { checkLoopGuard } from "./check-loop-guard.server";
import { onceClassifier, type AfterResponders, type ReplyDeps } from "./reply-deps";
import { runResponders, type InboundRow } from "./run-responders.server";

/**
 * The reply processors of issue 13, once per new inbound message: auto-responders answer, then `after` (smart
 * alerts, wired in app/wiring) tells the right person. STOP/START/HELP never reach an auto-answer (the pipeline owns
 * them); each step is idempotent on the inbound message, so a redelivered job changes nothing.
 */
export async function processReplies(deps: ReplyDeps, messageIds: number[], after: AfterResponders | null = null) {
  if (!messageIds.length) return [];
  const rows: InboundRow[] = await deps.db
    .select({
      id: messages.id,
      phone: sql<string>`${messages.phone}`, // not null: the WHERE below
      contactId: messages.contactId,
      content: messages.content,
      createdAt: sql`${messages.createdAt}`.mapWith(Number),
      firstName: contacts.firstName,
      lastName: contacts.lastName,
    })
    .from(messages)
    .leftJoin(contacts, eq(contacts.id, messages.contactId))
    .where(and(inJson(messages.id, messageIds), sql`${messages.direction} = 'inbound'`, isNotNull(messages.phone)))
    .orderBy(messages.id);
  const classifyOnce = onceClassifier(deps.classify);
  const limits = await (deps.capLimits ?? capLimitsLoader(deps.db))();
  const results = [];
  for (const msg of rows) {
    if (classifyInbound(msg.content)) continue; // a compliance keyword, or a START/YES from a lead: never auto-answered
    const classify = () => classifyOnce(msg.content, msg.id, msg.phone);
    // The classifier's second opinion on an opt-out (issue 24): asked of every reply when a model is configured.
    if (
      deps.classify?.hasModel &&
      isClassifierOptOut(msg.content, await classify()) &&
      (await optOutByClassifier(deps.db, deps.queue, msg, deps.now)).optedOut
    ) {
      results.push({ messageId: msg.id, responder: null, alert: null, optedOut: true });
      continue;
    }
    const loop = await checkLoopGuard(deps.db, msg, deps.now);
    const responder = await runResponders(deps, msg, classify, { limits, loop });
    const name = [msg.firstName, msg.lastName].filter(Boolean).join(" ") || null;
    const alert = await after?.(
      deps,
      { inboundId: msg.id, contactId: msg.contactId, phone: msg.phone, content: msg.content, name },
      classify,
      { answered: responder !== null || loop !== null, limits },
    );
    results.push({ messageId: msg.id, responder, alert: alert ?? null });
  }
  return results;
}
