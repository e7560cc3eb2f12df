import { and, eq, inArray, sql } from "drizzle-orm";
import { runBatch, type Db } from "~/db/client.server";
import {
  campaignEnrollments,
  campaigns,
  contactResponseTimes,
  contacts,
  sequenceTriggers,
  type TriggerEvent,
} from "~/db/schema";
import type { BatchItem } from "drizzle-orm/batch";
import { AppError } from "~/lib/app-error";
import type { JobQueue } from "~/lib/job-queue";
import { dispatchEnrollments } from "./dispatch-due-steps.server";
import { sourceKey } from "./sequence-trigger-schema";
import { firstStepAnchor } from "./start-campaign.server";

export type LeadTriggerDeps = { db: Db; queue: JobQueue };
export type LeadEvent = { contactId: number; source: string | null; now: Date };
export type LeadTriggerSkip = "already_enrolled" | "opted_out" | "campaign_not_running";
export type LeadTriggerResult = {
  /** One per campaign this lead was enrolled into now. */
  enrolled: { ruleId: number; campaignId: number; enrollmentId: number }[];
  skipped: { ruleId: number; campaignId: number; reason: LeadTriggerSkip }[];
  /** First steps created now (queued for the send queue) vs waiting for their step window (the cron sends them). */
  firstSteps: { created: number; rescheduled: number };
};

/**
 * What a new lead sets off (issue 26 item 3, decision 037) — the one function the lead webhook calls once the
 * contact exists (`POST /api/v1/leads`, after each created lead; `source` as the lead carried it, null = none):
 * 1. the lead's time and source are kept for the speed-to-lead figures (the first lead only: a lead posted again
 *    keeps its first time);
 * 2. every enabled `lead.created` rule whose source matches (case-insensitive, or any) enrols the contact into its
 *    campaign once — not when the contact is opted out, already in that campaign, or the campaign is not running;
 * 3. each new enrolment's first step is dispatched now instead of at the next cron tick: due and inside its step
 *    window → the message is created `queued` and its send job goes on the send queue at once (the one pipeline,
 *    whose consumer still applies opt-outs and quiet hours: outside them it waits, pending, for the window's
 *    opening); otherwise the enrolment waits for its window like any other.
 * Reads the contact and the matching rules by index; idempotent (the enrolment and the step's message are unique).
 */
export async function runLeadTriggers(deps: LeadTriggerDeps, event: LeadEvent): Promise<LeadTriggerResult> {
  const { contactId, now } = event;
  const leadRow = deps.db
    .insert(contactResponseTimes)
    .values({ contactId, leadAt: now, leadSource: event.source?.trim().slice(0, 200) || null })
    .onConflictDoUpdate({
      target: contactResponseTimes.contactId,
      set: { leadAt: now, leadSource: sql`excluded.lead_source` },
      setWhere: sql`${contactResponseTimes.leadAt} IS NULL`,
    });
  return enrolByRules(deps, { contactId, on: "lead.created", key: sourceKey(event.source), now }, leadRow);
}

/**
 * The same for the other events a rule can start a sequence on (decision 059): a contact moved to a stage (`key`:
 * the stage), an appointment marked no-show (`key`: '') or a tracked link's first click (`key`: its campaign's id,
 * '' outside one; decision 068). Called through the contact-event hooks the composition
 * root wires (app/wiring/contact-event-hooks.server.ts), after the change is written.
 */
export async function runContactTriggers(
  deps: LeadTriggerDeps,
  event: {
    contactIds: readonly number[];
    on: "stage.changed" | "appointment.no_show" | "link.clicked" | "tag.added";
    key: string;
    now: Date;
  },
) {
  const results: LeadTriggerResult[] = [];
  // Most stage moves have no rule: one read of the rules says so, instead of two reads per moved contact.
  if (!event.contactIds.length || !(await matchingRulesQuery(deps.db, event.key, event.on).limit(1)).length)
    return results;
  // Then one contact at a time: a bulk stage move is at most MAX_OWNER_CONTACTS contacts.
  for (const contactId of event.contactIds)
    results.push(await enrolByRules(deps, { contactId, on: event.on, key: event.key, now: event.now }));
  return results;
}

/**
 * Every enabled rule for this event and key (and those for any key) enrols the contact into its campaign once — not
 * when the contact is opted out, already in that campaign, or the campaign is not running — and each new
 * enrolment's first step is dispatched at once. `first`: a statement of the caller's to run in the same batch.
 */
async function enrolByRules(
  deps: LeadTriggerDeps,
  event: { contactId: number; on: TriggerEvent; key: string; now: Date },
  first?: BatchItem<"sqlite">,
): Promise<LeadTriggerResult> {
  const { db, queue } = deps;
  const { contactId, now } = event;
  const t = now.getTime();
  const [contactRows, ruleRows] = await Promise.all([
    db.select({ optedOutAt: contacts.optedOutAt }).from(contacts).where(eq(contacts.id, contactId)),
    matchingRulesQuery(db, event.key, event.on),
  ]);
  const contact = contactRows[0];
  if (!contact) throw new AppError("not_found", "Contact not found");

  const result: LeadTriggerResult = { enrolled: [], skipped: [], firstSteps: { created: 0, rescheduled: 0 } };
  // One enrolment per campaign, for the oldest rule that names it.
  const byCampaign = new Map<number, RuleRow>();
  for (const r of ruleRows) if (!byCampaign.has(r.campaignId)) byCampaign.set(r.campaignId, r);
  const candidates: RuleRow[] = [];
  for (const r of byCampaign.values()) {
    if (contact.optedOutAt) result.skipped.push({ ruleId: r.ruleId, campaignId: r.campaignId, reason: "opted_out" });
    else if (r.status !== "running")
      result.skipped.push({ ruleId: r.ruleId, campaignId: r.campaignId, reason: "campaign_not_running" });
    else candidates.push(r);
  }

  if (!candidates.length) {
    if (first) await first;
    return result;
  }
  const anchors = candidates.map((r) => firstStepAnchor(r, now));
  const enrol = db
    .insert(campaignEnrollments)
    .values(
      candidates.map((r, i) => ({
        campaignId: r.campaignId,
        contactId,
        status: "active" as const,
        nextStepNumber: 1,
        nextRunAt: new Date(anchors[i]),
        anchorAt: new Date(anchors[i]),
        createdAt: now,
        updatedAt: now,
      })),
    )
    .onConflictDoNothing({ target: [campaignEnrollments.campaignId, campaignEnrollments.contactId] })
    .returning({
      id: campaignEnrollments.id,
      campaignId: campaignEnrollments.campaignId,
      nextRunAt: campaignEnrollments.nextRunAt,
    });
  const written = await runBatch(db, first ? [first, enrol] : [enrol]);
  const inserted = written.at(-1) as { id: number; campaignId: number; nextRunAt: Date | null }[];

  const made = new Map(inserted.map((e) => [e.campaignId, e]));
  for (const r of candidates) {
    const e = made.get(r.campaignId);
    if (e) result.enrolled.push({ ruleId: r.ruleId, campaignId: r.campaignId, enrollmentId: e.id });
    else result.skipped.push({ ruleId: r.ruleId, campaignId: r.campaignId, reason: "already_enrolled" });
  }
  const dispatched = await dispatchEnrollments(
    db,
    queue,
    inserted.map((e) => ({
      id: e.id,
      campaign_id: e.campaignId,
      contact_id: contactId,
      next_step_number: 1,
      next_run_at: e.nextRunAt?.getTime() ?? t,
      anchor_at: e.nextRunAt?.getTime() ?? t,
    })),
    now,
  );
  result.firstSteps = { created: dispatched.created, rescheduled: dispatched.rescheduled };
  return result;
}

type RuleRow = {
  ruleId: number;
  campaignId: number;
  status: string;
  scheduledAt: Date | null;
  startDate: Date | null;
};

/**
 * The enabled rules of an event for a key (and those for any key), with their campaign: two seeks in
 * sequence_triggers_match_idx (its WHERE repeated literally, so the planner can use it), each campaign by its key.
 */
export function matchingRulesQuery(db: Db, key: string, on: TriggerEvent = "lead.created") {
  return db
    .select({
      ruleId: sequenceTriggers.id,
      campaignId: campaigns.id,
      status: campaigns.status,
      scheduledAt: campaigns.scheduledAt,
      startDate: campaigns.startDate,
    })
    .from(sequenceTriggers)
    .innerJoin(campaigns, eq(campaigns.id, sequenceTriggers.campaignId))
    .where(
      and(
        eq(sequenceTriggers.triggerOn, on),
        inArray(sequenceTriggers.matchKey, key ? [key, ""] : [""]),
        sql`${sequenceTriggers.enabled} = 1`,
      ),
    )
    .orderBy(sequenceTriggers.id);
}
