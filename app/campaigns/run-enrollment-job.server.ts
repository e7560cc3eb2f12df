import { and, eq, ne, sql } from "drizzle-orm";
import { bulkInsertSql } from "~/db/bulk-update.server";
import { listContacts, MAX_PAGE_SIZE } from "~/contacts/list-contacts.server";
import { runBatch, type Db } from "~/db/client.server";
import { campaignEnrollments, campaigns, type Campaign } from "~/db/schema";
import type { EnrollCampaignJob } from "~/jobs/jobs";
import type { JobQueue } from "~/lib/job-queue";
import { enqueueDueMessages } from "~/messaging/enqueue-due-messages.server";
import { getCampaignRow } from "./get-campaign.server";
import { firstStepAnchor } from "./start-campaign.server";

/** Rows per statement: one INSERT … SELECT over a keyset range (or a bound JSON list), never one per contact. */
export const ENROLL_CHUNK = 5000;
/** Work per queue message; the rest continues in a follow-up job so no invocation runs long. */
const BUDGET_MS = 8000;

export type EnrollDeps = { db: Db; queue: JobQueue; now: Date; chunk?: number; budgetMs?: number };

/**
 * One step of starting/resuming a campaign, run from the queue (`enroll-campaign`):
 * 1. (first job only, `afterContactId` null) release what the campaign held: draft and paused enrolments become
 *    active (a draft's contacts get the first-step anchor) and held messages go back to the pipeline;
 * 2. enrol the audience query ("" = every contact, else the contacts search's matches) once, newest contact first,
 *    one keyset chunk per statement; each chunk is visible at once in the campaign's contact count.
 * A job that runs out of budget enqueues its continuation. When both are done `enrolling` clears, which lets the
 * campaign complete by itself once nobody is waiting (trigger, migration 0015).
 */
export async function runEnrollmentJob(
  job: EnrollCampaignJob,
  deps: EnrollDeps,
): Promise<"done" | "continued" | "stopped"> {
  const { db, queue, now } = deps;
  const chunk = deps.chunk ?? ENROLL_CHUNK;
  const budget = Date.now() + (deps.budgetMs ?? BUDGET_MS);
  const c = await getCampaignRow(db, job.campaignId).catch(() => null);
  if (!c) return "stopped";
  const t = now.getTime();
  if (c.status !== "running") {
    // Paused (or completed) meanwhile: resume sends a fresh job that picks up from the start.
    await db
      .update(campaigns)
      .set({ enrolling: false })
      .where(and(eq(campaigns.id, c.id), ne(campaigns.status, "running")));
    return "stopped";
  }
  const anchor = firstStepAnchor(c, now);
  const more = async (afterContactId: number | null) => {
    await queue.send({ v: 1, type: "enroll-campaign", campaignId: c.id, afterContactId } satisfies EnrollCampaignJob, {
      contentType: "json",
    });
    return "continued" as const;
  };

  if (job.afterContactId === null) {
    for (;;) {
      const res = await db.run(sql`
        UPDATE campaign_enrollments SET status = 'active',
          next_run_at = CASE WHEN anchor_at IS NULL THEN ${anchor} ELSE next_run_at END,
          anchor_at = coalesce(anchor_at, ${anchor}), updated_at = ${t}
        WHERE id IN (SELECT id FROM campaign_enrollments WHERE campaign_id = ${c.id} AND status = 'paused' LIMIT ${chunk})`);
      // meta.changes also counts the counter trigger's writes: at worst one extra pass that changes nothing.
      if ((res.meta.changes ?? 0) < chunk) break;
      if (Date.now() > budget) return more(null);
    }
    for (;;) {
      // A held message whose contact left meanwhile (deleted, opted out, replied) is skipped, never released.
      const released = await db.all<{ id: number; status: string }>(sql`
        UPDATE messages SET
          status = CASE WHEN EXISTS (SELECT 1 FROM campaign_enrollments e WHERE e.id = messages.enrollment_id AND e.status IN ('active', 'paused'))
                   THEN 'pending' ELSE 'skipped' END,
          error_message = CASE WHEN EXISTS (SELECT 1 FROM campaign_enrollments e WHERE e.id = messages.enrollment_id AND e.status IN ('active', 'paused'))
                   THEN NULL ELSE 'The contact left the campaign while it was paused' END,
          scheduled_at = ${t}, updated_at = ${t}
        WHERE id IN (SELECT id FROM messages WHERE status = 'held' AND campaign_id = ${c.id} LIMIT ${Math.min(chunk, 1000)})
        RETURNING id, status`);
      await enqueueDueMessages(
        db,
        queue,
        now,
        released.filter((r) => r.status === "pending").map((r) => r.id),
      );
      if (released.length < Math.min(chunk, 1000)) break;
      if (Date.now() > budget) return more(null);
    }
  }

  if (c.audienceQuery !== null && !c.audienceEnrolled) {
    let cursor = job.afterContactId;
    for (;;) {
      const next = await enrollChunk(db, c, cursor, anchor, t, chunk);
      if (next === null) break;
      cursor = next;
      if (Date.now() > budget) return more(cursor);
    }
    await db.update(campaigns).set({ audienceEnrolled: true }).where(eq(campaigns.id, c.id));
  }
  await db
    .update(campaigns)
    .set({ enrolling: false, updatedAt: now })
    .where(and(eq(campaigns.id, c.id), eq(campaigns.status, "running")));
  return "done";
}

/** Enrols one chunk of the audience below `cursor` (newest first); returns the next cursor, or null when done. */
async function enrollChunk(
  db: Db,
  c: Campaign,
  cursor: number | null,
  anchor: number,
  t: number,
  chunk: number,
): Promise<number | null> {
  const below = cursor ?? Number.MAX_SAFE_INTEGER;
  if (c.audienceQuery === "") {
    // Every contact: a primary-key range, read and inserted inside the database in one transaction.
    const range = sql`(SELECT id FROM contacts WHERE id < ${below} ORDER BY id DESC LIMIT ${chunk})`;
    const [, bounds] = (await runBatch(db, [
      db.run(sql`
        INSERT INTO campaign_enrollments (campaign_id, contact_id, status, next_step_number, next_run_at, anchor_at, created_at, updated_at)
        SELECT ${c.id}, r.id, 'active', 1, ${anchor}, ${anchor}, ${t}, ${t} FROM ${range} AS r WHERE true
        ON CONFLICT(campaign_id, contact_id) DO NOTHING`),
      db.all(sql`SELECT min(id) AS lo, count(*) AS n FROM ${range}`),
    ])) as [unknown, { lo: number | null; n: number }[]];
    const { lo, n } = bounds[0] ?? { lo: null, n: 0 };
    return n < chunk || lo === null ? null : lo;
  }
  // A search: the contacts list's own search (FTS, or its bounded scan for short terms), one page per statement.
  const page = await listContacts(db, { q: c.audienceQuery, after: cursor, limit: Math.min(chunk, MAX_PAGE_SIZE) });
  if (page.contacts.length) {
    await db.run(
      bulkInsertSql(
        campaignEnrollments,
        page.contacts.map((x) => ({ id: x.id })),
        (j) => ({
          values: {
            campaignId: c.id,
            contactId: j.id,
            status: "active",
            nextStepNumber: 1,
            nextRunAt: anchor,
            anchorAt: anchor,
            createdAt: t,
            updatedAt: t,
          },
          onConflict: sql`ON CONFLICT (${campaignEnrollments.campaignId}, ${campaignEnrollments.contactId}) DO NOTHING`,
        }),
      ),
    );
  }
  return page.nextCursor;
}
