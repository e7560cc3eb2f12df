import { and, eq, isNotNull, sql } from "drizzle-orm";
import { runBatch, type Db } from "~/db/client.server";
import { campaignEnrollments, campaigns, contacts, messages } from "~/db/schema";
import { AppError } from "~/lib/app-error";
import { CAMPAIGN_NOT_FOUND } from "./campaign-schema";
import { publicEnrollment } from "./list-campaign-enrollments.server";

export const STOPPED_BY_API_REASON = "api";

/**
 * Stops one contact's enrolment in a campaign (POST /api/v1/campaigns/{id}/enrolments/{contactId}/stop): a waiting
 * enrolment (active or paused) becomes `stopped` (reason `api`) and its step messages not yet handed to the
 * provider are skipped, in one batch, as a reply stops a sequence (stop-enrollments-on-reply). Stopping a stopped
 * enrolment again changes nothing and answers it as it is (a retry is safe); a completed one is a conflict.
 */
export async function stopEnrollment(db: Db, target: { campaignId: number; contactId: number }, now: Date) {
  const e = campaignEnrollments;
  const which = and(eq(e.campaignId, target.campaignId), eq(e.contactId, target.contactId));
  const [stopped] = await runBatch(db, [
    db
      .update(e)
      .set({ status: "stopped", stopReason: STOPPED_BY_API_REASON, nextRunAt: null, updatedAt: now })
      .where(and(which, sql`${e.status} IN ('active', 'paused')`))
      .returning(),
    // Its unsent step messages, through messages_unsent_phone_idx (the contact's number; literal statuses). On a
    // retry there are none left: they were skipped the first time.
    db
      .update(messages)
      .set({ status: "skipped", errorMessage: "The enrolment was stopped through the API", updatedAt: now })
      .where(
        and(
          eq(
            messages.phone,
            db.select({ phone: contacts.phone }).from(contacts).where(eq(contacts.id, target.contactId)),
          ),
          sql`${messages.status} IN ('pending', 'queued', 'held')`,
          isNotNull(messages.enrollmentId),
          eq(
            messages.enrollmentId,
            db
              .select({ id: e.id })
              .from(e)
              .where(and(which, sql`${e.status} = 'stopped'`)),
          ),
        ),
      ),
  ]);
  const row = (stopped as (typeof e.$inferSelect)[])[0];
  if (row) return publicEnrollment(row);
  const existing = await db.select().from(e).where(which).get();
  if (!existing) {
    const campaign = await db
      .select({ id: campaigns.id })
      .from(campaigns)
      .where(eq(campaigns.id, target.campaignId))
      .get();
    throw new AppError("not_found", campaign ? "This contact is not enrolled in the campaign" : CAMPAIGN_NOT_FOUND);
  }
  if (existing.status === "completed")
    throw new AppError("conflict", "The enrolment is completed: every step was sent");
  return publicEnrollment(existing);
}
