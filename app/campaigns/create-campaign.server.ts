import { and, eq, exists, max, sql } from "drizzle-orm";
import { bulkInsertSql } from "~/db/bulk-update.server";
import { runBatch, type Db } from "~/db/client.server";
import { activityLog, campaignEnrollments, campaigns, contacts, type Campaign } from "~/db/schema";
import { AppError } from "~/lib/app-error";
import { TOASTS, type CreateCampaignInput } from "./campaign-schema";
import { publicCampaign, type PublicCampaign } from "./get-campaign.server";
import type { Actor } from "~/lib/actor";
import type { Role } from "~/db/schema";
import { loadContactScope, scopeCondition } from "~/contacts/contact-scope.server";
import { getSegment } from "~/segments/segment-access.server";

/**
 * Creates a draft campaign with its audience in one transaction: picked contacts are enrolled now (held until
 * start, one INSERT … SELECT over a bound JSON list); "all contacts matching q" is stored and enrolled in chunks
 * through the queue when the campaign starts. Logs `create_campaign`. Picked contacts outside the creator's scope
 * (decision 048) are left out as if they did not exist.
 */
export async function createCampaign(
  db: Db,
  input: CreateCampaignInput,
  actor: Actor & { role: Role },
  now: Date,
): Promise<PublicCampaign> {
  const audiences = [input.audienceQuery !== undefined, !!input.contactIds?.length, input.segmentId !== undefined];
  if (audiences.filter(Boolean).length > 1) {
    throw new AppError("validation", "Choose picked contacts, all matching contacts or a segment, not more than one", {
      field: "contactIds",
      title: TOASTS.create,
    });
  }
  if (input.segmentId !== undefined)
    await getSegment(db, input.segmentId).catch(() => {
      throw new AppError("validation", "Choose one of the team's segments", {
        field: "segmentId",
        title: TOASTS.create,
      });
    });
  const t = now.getTime();
  const ids = [...new Set(input.contactIds ?? [])].map((id) => ({ id }));
  const scope = ids.length ? scopeCondition(await loadContactScope(db, actor)) : undefined;
  // D1 runs a batch as one serialised transaction, so max(id) right after the insert is this campaign.
  const newId = sql`${db.select({ id: max(campaigns.id) }).from(campaigns)}`;
  const [[created]] = (await runBatch(db, [
    db
      .insert(campaigns)
      .values({
        name: input.name,
        description: input.description ?? null,
        scheduledAt: input.scheduledAt ?? null,
        startDate: input.startDate ?? null,
        promoCode: input.promoCode ?? null,
        offerExpiration: input.offerExpiration ?? null,
        stopOnReply: input.stopOnReply ?? true,
        audienceQuery: input.audienceQuery ?? null,
        segmentId: input.segmentId ?? null,
        createdBy: actor.userId,
        createdAt: now,
        updatedAt: now,
      })
      .returning(),
    // The picked contacts that exist, paused until the campaign starts.
    db.run(
      bulkInsertSql(campaignEnrollments, ids, (j) => ({
        values: {
          campaignId: newId,
          contactId: j.id,
          status: sql`'paused'`,
          nextStepNumber: 1,
          createdAt: t,
          updatedAt: t,
        },
        where: exists(
          db
            .select({ id: contacts.id })
            .from(contacts)
            .where(and(eq(contacts.id, j.id), scope)),
        ),
        onConflict: sql`ON CONFLICT(campaign_id, contact_id) DO NOTHING`,
      })),
    ),
    db.insert(activityLog).values({
      userId: actor.userId,
      action: "create_campaign",
      details: sql`json_object('campaignId', ${newId}, 'name', ${input.name})`,
      ipAddress: actor.ipAddress,
      createdAt: now,
    }),
  ])) as [Campaign[], unknown, unknown];
  // The enrolment trigger moved contact_count after the RETURNING snapshot: read the row again.
  const row = await db
    .select({ contactCount: campaigns.contactCount, waitingCount: campaigns.waitingCount })
    .from(campaigns)
    .where(eq(campaigns.id, created.id))
    .get();
  return publicCampaign({ ...created, contactCount: row?.contactCount ?? 0, waitingCount: row?.waitingCount ?? 0 });
}
