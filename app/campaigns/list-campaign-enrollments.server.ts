import { desc, eq } from "drizzle-orm";
import type { Db } from "~/db/client.server";
import { pageLimit, splitPage, underParentAfter } from "~/db/page-newest-first.server";
import { campaignEnrollments, campaigns } from "~/db/schema";
import { AppError } from "~/lib/app-error";
import { CAMPAIGN_NOT_FOUND } from "./campaign-schema";

export const ENROLLMENT_PAGE = 50;
export const MAX_ENROLLMENT_PAGE = 200;

export type EnrollmentRow = typeof campaignEnrollments.$inferSelect;

/** An enrolment as the API shows it (dates as ISO strings). */
export function publicEnrollment(e: EnrollmentRow) {
  return {
    id: e.id,
    campaignId: e.campaignId,
    contactId: e.contactId,
    status: e.status,
    nextStepNumber: e.nextStepNumber,
    nextRunAt: e.nextRunAt?.toISOString() ?? null,
    lastSentAt: e.lastSentAt?.toISOString() ?? null,
    stopReason: e.stopReason,
    createdAt: e.createdAt.toISOString(),
    updatedAt: e.updatedAt.toISOString(),
  };
}

/** The statement of one page (exported so the plan test checks the query that runs). */
export function enrollmentsPage(db: Db, campaignId: number, opts: { after?: number | null; limit: number }) {
  const e = campaignEnrollments;
  return db
    .select()
    .from(e)
    .where(underParentAfter(e.campaignId, campaignId, e.contactId, opts.after))
    .orderBy(desc(e.contactId))
    .limit(opts.limit + 1);
}

/**
 * A campaign's enrolments, keyset-paged on the contact id, newest contacts first (`after` = the last contact id
 * seen). An enrolment is one per (campaign, contact), so the contact id names it; the order is the unique index
 * campaign_enrollments_campaign_contact_uq, a seek per page at any depth. Ordering by the enrolment id would need a
 * sort of every enrolment of the campaign per page (no index has campaign_id then id).
 */
export async function listCampaignEnrollments(
  db: Db,
  campaignId: number,
  opts: { after?: number | null; limit?: number } = {},
) {
  const campaign = await db.select({ id: campaigns.id }).from(campaigns).where(eq(campaigns.id, campaignId)).get();
  if (!campaign) throw new AppError("not_found", CAMPAIGN_NOT_FOUND);
  const limit = pageLimit(opts.limit, { page: ENROLLMENT_PAGE, max: MAX_ENROLLMENT_PAGE });
  const rows = await enrollmentsPage(db, campaignId, { after: opts.after, limit });
  const { page, nextCursor } = splitPage(rows, limit, (e) => e.contactId);
  return { enrollments: page.map(publicEnrollment), nextCursor };
}
