import { count, desc, eq, inArray } from "drizzle-orm";
import { activityRow, logActivity } from "~/activity/log-activity.server";
import { runBatch, type Db } from "~/db/client.server";
import { activityLog, campaigns, sequenceTriggers } from "~/db/schema";
import type { Actor } from "~/lib/actor";
import { AppError } from "~/lib/app-error";
import { listPipelineStages, requireStage } from "~/contacts/pipeline-stages.server";
import {
  describeTrigger,
  triggerOf,
  MAX_RULES,
  RULE_CAMPAIGN_REQUIRED,
  triggerColumns,
  type CreateRuleInput,
  type SequenceTriggerOn,
} from "./sequence-trigger-schema";

// Lead trigger rules are organisation settings managed by superusers (decision 037): a rule fires on every lead
// from every key, so who may start which sequence for whose leads is not a campaign owner's call alone.

export const RULE_NOT_FOUND = "Trigger rule not found";

export type PublicRule = {
  id: number;
  name: string;
  trigger: SequenceTriggerOn;
  description: string;
  campaignId: number;
  campaignName: string;
  campaignStatus: string;
  enabled: boolean;
  createdAt: string;
};

/** Every rule, newest first (at most MAX_RULES exist), with its campaign's name and status. */
export async function listSequenceTriggers(db: Db): Promise<PublicRule[]> {
  const rows = await db
    .select({
      id: sequenceTriggers.id,
      name: sequenceTriggers.name,
      triggerOn: sequenceTriggers.triggerOn,
      matchValue: sequenceTriggers.matchValue,
      campaignId: sequenceTriggers.campaignId,
      campaignName: campaigns.name,
      campaignStatus: campaigns.status,
      enabled: sequenceTriggers.enabled,
      createdAt: sequenceTriggers.createdAt,
    })
    .from(sequenceTriggers)
    .innerJoin(campaigns, eq(campaigns.id, sequenceTriggers.campaignId))
    .orderBy(desc(sequenceTriggers.id))
    .limit(MAX_RULES);
  const labels = new Map((await listPipelineStages(db)).map((s) => [s.key, s.label]));
  // A click rule names the sequence whose links count: their names in one read by primary key.
  const clickedIn = rows.flatMap((r) => (r.triggerOn === "link.clicked" && r.matchValue ? [Number(r.matchValue)] : []));
  const names = new Map(
    clickedIn.length
      ? (
          await db
            .select({ id: campaigns.id, name: campaigns.name })
            .from(campaigns)
            .where(inArray(campaigns.id, [...new Set(clickedIn)]))
        ).map((c) => [c.id, c.name])
      : [],
  );
  return rows.map((r) => {
    const stored = triggerOf(r);
    const trigger: SequenceTriggerOn =
      stored.on === "stage.changed"
        ? { ...stored, label: labels.get(stored.stage) ?? stored.stage }
        : stored.on === "link.clicked" && stored.campaignId !== null
          ? { ...stored, label: names.get(stored.campaignId) ?? `a deleted sequence` }
          : stored;
    return {
      id: r.id,
      name: r.name,
      trigger,
      description: describeTrigger(trigger),
      campaignId: r.campaignId,
      campaignName: r.campaignName,
      campaignStatus: r.campaignStatus,
      enabled: r.enabled,
      createdAt: r.createdAt.toISOString(),
    };
  });
}

/** The campaigns a rule may start: any that is not completed, newest first (the picker). */
export async function listTriggerableCampaigns(db: Db, limit = 200) {
  return db
    .select({ id: campaigns.id, name: campaigns.name, status: campaigns.status })
    .from(campaigns)
    .where(inArray(campaigns.status, ["draft", "running", "paused"]))
    .orderBy(desc(campaigns.id))
    .limit(limit);
}

/** A new enabled rule "new lead from <source or any> → start <campaign>". Logs `create_lead_trigger`. */
export async function createSequenceTrigger(db: Db, input: CreateRuleInput, actor: Actor, now: Date) {
  const [c, total] = await Promise.all([
    db
      .select({ id: campaigns.id, status: campaigns.status })
      .from(campaigns)
      .where(eq(campaigns.id, input.campaignId))
      .get(),
    db.select({ n: count() }).from(sequenceTriggers).get(),
  ]);
  if (!c) throw new AppError("validation", RULE_CAMPAIGN_REQUIRED, { field: "campaignId" });
  if (c.status === "completed")
    throw new AppError("validation", "This sequence is completed; choose one that can still run", {
      field: "campaignId",
    });
  if ((total?.n ?? 0) >= MAX_RULES)
    throw new AppError("conflict", `At most ${MAX_RULES} trigger rules; delete one you no longer use`);
  let trigger: SequenceTriggerOn;
  if (input.on === "stage.changed") {
    if (!input.stage) throw new AppError("validation", "Choose the stage", { field: "stage" });
    trigger = { on: "stage.changed", stage: (await requireStage(db, input.stage)).key };
  } else if (input.on === "appointment.no_show") trigger = { on: "appointment.no_show" };
  else if (input.on === "tag.added") {
    if (!input.tag) throw new AppError("validation", "Enter the tag that starts the sequence", { field: "tag" });
    trigger = { on: "tag.added", tag: input.tag };
  } else if (input.on === "link.clicked") {
    if (input.clickedIn !== undefined) {
      const source = await db
        .select({ id: campaigns.id })
        .from(campaigns)
        .where(eq(campaigns.id, input.clickedIn))
        .get();
      if (!source) throw new AppError("validation", "Choose the sequence whose links count", { field: "clickedIn" });
    }
    trigger = { on: "link.clicked", campaignId: input.clickedIn ?? null };
  } else trigger = { on: "lead.created", source: input.source };
  const [rows] = (await runBatch(db, [
    db
      .insert(sequenceTriggers)
      .values({
        name: input.name,
        ...triggerColumns(trigger),
        campaignId: c.id,
        enabled: true,
        createdBy: actor.userId,
        createdAt: now,
        updatedAt: now,
      })
      .returning({ id: sequenceTriggers.id }),
    logActivity(db, "create_lead_trigger", {
      ...actor,
      details: { campaignId: c.id, ...triggerColumns(trigger) },
      now,
    }),
  ])) as [{ id: number }[]];
  return { id: rows[0].id };
}

/** Turns a rule on or off. Logs `update_lead_trigger`. */
export async function setSequenceTriggerEnabled(db: Db, id: number, enabled: boolean, actor: Actor, now: Date) {
  const rows = await db
    .update(sequenceTriggers)
    .set({ enabled, updatedAt: now })
    .where(eq(sequenceTriggers.id, id))
    .returning({ id: sequenceTriggers.id });
  if (!rows.length) throw new AppError("not_found", RULE_NOT_FOUND);
  await logActivity(db, "update_lead_trigger", {
    ...actor,
    details: { id, enabled },
    now,
  });
}

/** Deletes a rule (the enrolments it made stay). Logs `delete_lead_trigger`. */
export async function deleteSequenceTrigger(db: Db, id: number, actor: Actor, now: Date) {
  const rows = await db
    .delete(sequenceTriggers)
    .where(eq(sequenceTriggers.id, id))
    .returning({ id: sequenceTriggers.id });
  if (!rows.length) throw new AppError("not_found", RULE_NOT_FOUND);
  await db
    .insert(activityLog)
    .values(
      activityRow("delete_lead_trigger", { userId: actor.userId, ipAddress: actor.ipAddress, details: { id }, now }),
    );
}
