import { and, eq, inArray, ne, sql, type SQL } from "drizzle-orm";
import { logActivity } from "~/activity/log-activity.server";
import { inJson } from "~/db/bulk-update.server";
import type { Db } from "~/db/client.server";
import { contacts, pipelineStages } from "~/db/schema";
import type { Actor } from "~/lib/actor";
import { AppError } from "~/lib/app-error";
import { loadContactScope, scopeCondition, type ContactViewer } from "./contact-scope.server";
import { MAX_OWNER_CONTACTS } from "./owner-limits";
import { requireStage } from "./pipeline-stages.server";
import { NO_CONTACT_EVENT_HOOKS, type ContactEventHooks } from "./contact-event-hooks";

/**
 * Moves one or more contacts to a pipeline stage (decision 053), by hand on the contact page or in bulk from the list.
 * Only contacts the person sees (decision 048) move — the scope is in the UPDATE's WHERE, so a forged id changes
 * nothing — and only those not already there; `stage_changed_at` records when. One activity entry: who, which stage,
 * how many.
 */
export async function setContactStage(
  db: Db,
  input: { contactIds: readonly number[]; stage: string },
  actor: Actor & ContactViewer,
  now: Date,
  hooks: ContactEventHooks = NO_CONTACT_EVENT_HOOKS,
) {
  const ids = [...new Set(input.contactIds)];
  if (!ids.length) throw new AppError("validation", "Choose at least one contact");
  if (ids.length > MAX_OWNER_CONTACTS)
    throw new AppError("validation", `Choose at most ${MAX_OWNER_CONTACTS} contacts at a time`);
  const [stage, scope] = await Promise.all([requireStage(db, input.stage), loadContactScope(db, actor)]);
  const changed = await db
    .update(contacts)
    .set({ stage: stage.key, stageChangedAt: now, updatedAt: now })
    .where(
      and(
        inJson(contacts.id, ids),
        ne(contacts.stage, stage.key),
        scopeCondition(scope),
        // The stage still exists as the rows change (a superuser may be deleting it).
        sql`EXISTS (SELECT 1 FROM ${pipelineStages} WHERE ${pipelineStages.key} = ${stage.key})`,
      ),
    )
    .returning({ id: contacts.id });
  await logActivity(db, "set_contact_stage", {
    ...actor,
    now,
    details: { stage: stage.key, changed: changed.length, contactIds: changed.slice(0, 20).map((r) => r.id) },
  });
  // The sequences a stage starts (decision 059), for the contacts that moved now.
  if (changed.length)
    await hooks.stageChanged(
      { db, now },
      changed.map((r) => r.id),
      stage.key,
    );
  return { stage, changed: changed.length, unchanged: ids.length - changed.length };
}

/**
 * An automatic move forward (decision 055: an appointment booked → Appointment set, sat → Sat): the contact goes to
 * `to` only from one of the `from` stages — never backwards — while `to` exists, and only `when` holds (a condition
 * of the caller's same batch). A statement for the caller's batch, no activity entry (the caller logs its own act).
 */
export function advanceStageStatement(
  db: Db,
  move: { contactId: number; to: string; from: readonly string[]; when?: SQL },
  now: Date,
) {
  return db
    .update(contacts)
    .set({ stage: move.to, stageChangedAt: now, updatedAt: now })
    .where(
      and(
        eq(contacts.id, move.contactId),
        inArray(contacts.stage, [...move.from]),
        move.when,
        sql`EXISTS (SELECT 1 FROM ${pipelineStages} WHERE ${pipelineStages.key} = ${move.to})`,
      ),
    )
    .returning({ id: contacts.id });
}
