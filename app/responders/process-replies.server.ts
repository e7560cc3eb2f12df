import { sql } from "drizzle-orm";
import { runAlerts } from "~/alerts/run-alerts.server";
import { capLimitsLoader } from "~/caps/load-cap-limits.server";
import { classifyInbound } from "~/messaging/keywords";
import { isClassifierOptOut, optOutByClassifier } from "~/messaging/opt-out-by-classifier.server";
import { checkLoopGuard } from "./check-loop-guard.server";
import { onceClassifier, type ReplyDeps } from "./reply-deps";
import { runResponders, type InboundRow } from "./run-responders.server";

/**
 * The reply processors of issue 13, once per new inbound message: auto-responders answer, smart alerts tell the
 * right person. STOP/START/HELP never reach an auto-answer (the pipeline owns them); each step is idempotent on
 * the inbound message, so a redelivered job changes nothing.
 */
export async function processReplies(deps: ReplyDeps, messageIds: number[]) {
  if (!messageIds.length) return [];
  const rows = await deps.db.all<InboundRow>(sql`
    SELECT m.id, m.phone, m.contact_id AS contactId, m.content, m.created_at AS createdAt, c.first_name AS firstName, c.last_name AS lastName
    FROM messages m LEFT JOIN contacts c ON c.id = m.contact_id
    WHERE m.id IN (SELECT value FROM json_each(${JSON.stringify(messageIds)})) AND m.direction = 'inbound' AND m.phone IS NOT NULL
    ORDER BY m.id`);
  const classifyOnce = onceClassifier(deps.classify);
  const limits = await (deps.capLimits ?? capLimitsLoader(deps.db))();
  const results = [];
  for (const msg of rows) {
    if (classifyInbound(msg.content)) continue; // a compliance keyword, or a START/YES from a lead: never auto-answered
    const classify = () => classifyOnce(msg.content, msg.id, msg.phone);
    // The classifier's second opinion on an opt-out (issue 24): asked of every reply when a model is configured.
    if (deps.classify?.hasModel && isClassifierOptOut(msg.content, await classify()) && (await optOutByClassifier(deps.db, deps.queue, msg, deps.now)).optedOut) {
      results.push({ messageId: msg.id, responder: null, alert: null, optedOut: true });
      continue;
    }
    const loop = await checkLoopGuard(deps.db, msg, deps.now);
    const responder = await runResponders(deps, msg, classify, { limits, loop });
    const name = [msg.firstName, msg.lastName].filter(Boolean).join(" ") || null;
    const alert = await runAlerts(
      deps,
      { inboundId: msg.id, contactId: msg.contactId, phone: msg.phone, content: msg.content, name },
      classify,
      { answered: responder !== null || loop !== null, limits },
    );
    results.push({ messageId: msg.id, responder, alert });
  }
  return results;
}
