import { and, count, desc, eq, exists, inArray, lt, ne, sql } from "drizzle-orm";
import { alias, type SQLiteColumn } from "drizzle-orm/sqlite-core";
import { bulkInsertSql } from "~/db/bulk-update.server";
import { listContacts, MAX_PAGE_SIZE } from "~/contacts/list-contacts.server";
import { runBatch, type Db } from "~/db/client.server";
import { campaignEnrollments, campaigns, contacts, messages, type Campaign } from "~/db/schema";
import { loadUserContactScope, type ContactScope } from "~/contacts/contact-scope.server";
import { loadDefinitions } from "~/segments/segment-access.server";
import { nextBelow, segmentStep } from "~/segments/segment-members.server";
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
      const e = campaignEnrollments;
      const res = await db
        .update(e)
        .set({
          status: "active",
          nextRunAt: sql`CASE WHEN ${e.anchorAt} IS NULL THEN ${anchor} ELSE ${e.nextRunAt} END`,
          anchorAt: sql`coalesce(${e.anchorAt}, ${anchor})`,
          updatedAt: now,
        })
        .where(
          inArray(
            e.id,
            db
              .select({ id: e.id })
              .from(e)
              .where(and(eq(e.campaignId, c.id), eq(e.status, "paused")))
              .limit(chunk),
          ),
        );
      // meta.changes also counts the counter trigger's writes: at worst one extra pass that changes nothing.
      if ((res.meta.changes ?? 0) < chunk) break;
      if (Date.now() > budget) return more(null);
    }
    for (;;) {
      // A held message whose contact left meanwhile (deleted, opted out, replied) is skipped, never released.
      const e = alias(campaignEnrollments, "e");
      const stillIn = exists(
        db
          .select({ one: sql`1` })
          .from(e)
          .where(and(eq(e.id, messages.enrollmentId), inArray(e.status, ["active", "paused"]))),
      );
      const released = await db
        .update(messages)
        .set({
          status: sql`CASE WHEN ${stillIn} THEN 'pending' ELSE 'skipped' END`,
          errorMessage: sql`CASE WHEN ${stillIn} THEN NULL ELSE 'The contact left the campaign while it was paused' END`,
          scheduledAt: now,
          updatedAt: now,
        })
        .where(
          inArray(
            messages.id,
            db
              .select({ id: messages.id })
              .from(messages)
              // The literal status: messages_held_idx is partial and a bound status cannot use it.
              .where(and(sql`${messages.status} = 'held'`, eq(messages.campaignId, c.id)))
              .limit(Math.min(chunk, 1000)),
          ),
        )
        .returning({ id: messages.id, status: messages.status });
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

  if ((c.audienceQuery !== null || c.segmentId !== null) && !c.audienceEnrolled) {
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
  // "All matching" means the campaign creator's contacts (decision 048): a standard user's own and unowned ones.
  const scope = await loadUserContactScope(db, c.createdBy);
  if (c.segmentId !== null) return enrollSegmentChunk(db, c, c.segmentId, scope, cursor, anchor, t, chunk);
  if (c.audienceQuery === "" && scope.kind === "all") {
    // Every contact: a primary-key range, read and inserted inside the database in one transaction.
    const range = () =>
      db
        .select({ id: contacts.id })
        .from(contacts)
        .where(lt(contacts.id, below))
        .orderBy(desc(contacts.id))
        .limit(chunk)
        .as("r");
    const r = range();
    const e = campaignEnrollments;
    const bound = range();
    const [, bounds] = (await runBatch(db, [
      // Every column of campaign_enrollments, in order (drizzle's insert().select() writes them all).
      db
        .insert(e)
        .select(
          db
            .select(activeEnrolment(c.id, r.id, anchor, t))
            .from(r)
            // `WHERE true`: without it SQLite reads ON CONFLICT as the SELECT's join constraint.
            .where(sql`true`),
        )
        .onConflictDoNothing({ target: [e.campaignId, e.contactId] }),
      db.select({ lo: sql<number | null>`min(${bound.id})`, n: count() }).from(bound),
    ])) as [unknown, { lo: number | null; n: number }[]];
    const { lo, n } = bounds[0] ?? { lo: null, n: 0 };
    return n < chunk || lo === null ? null : lo;
  }
  // A search: the contacts list's own search (FTS, or its bounded scan for short terms), one page per statement.
  const page = await listContacts(db, {
    q: c.audienceQuery,
    after: cursor,
    limit: Math.min(chunk, MAX_PAGE_SIZE),
    scope,
  });
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

/**
 * A segment audience (decision 075): its contacts among the next `chunk` contact ids below the cursor, enrolled inside
 * the database (INSERT … SELECT with the segment's WHERE) — the segment is evaluated now, at start, not when it was
 * picked. A segment deleted meanwhile enrols nobody (its campaigns keep it: deleteSegment refuses).
 */
async function enrollSegmentChunk(
  db: Db,
  c: Campaign,
  segmentId: number,
  scope: ContactScope,
  cursor: number | null,
  anchor: number,
  t: number,
  chunk: number,
): Promise<number | null> {
  const def = (await loadDefinitions(db, [segmentId])).get(segmentId);
  if (!def) return null;
  const step = segmentStep(db, def, scope, cursor, new Date(t), chunk);
  const e = campaignEnrollments;
  const [, bounds] = (await runBatch(db, [
    db
      .insert(e)
      .select(
        db
          .select(activeEnrolment(c.id, contacts.id, anchor, t))
          .from(contacts)
          .where(step.members),
      )
      .onConflictDoNothing({ target: [e.campaignId, e.contactId] }),
    step.bounds,
  ])) as [unknown, { lo: number | null; n: number }[]];
  return nextBelow(bounds[0], step.span);
}

/**
 * Every column of campaign_enrollments, in order, for an INSERT … SELECT (drizzle's insert().select() writes them all):
 * the contact `contactId` enrolled active at the first step, due at `anchor`.
 */
function activeEnrolment<C extends SQLiteColumn>(campaignId: number, contactId: C, anchor: number, t: number) {
  return {
    id: sql<number>`NULL`.as("id"),
    campaignId: sql<number>`${campaignId}`.as("campaign_id"),
    contactId,
    status: sql<"active">`'active'`.as("status"),
    nextStepNumber: sql<number>`1`.as("next_step_number"),
    nextRunAt: sql<Date>`${anchor}`.as("next_run_at"),
    lastSentAt: sql<Date | null>`NULL`.as("last_sent_at"),
    anchorAt: sql<Date>`${anchor}`.as("anchor_at"),
    stopReason: sql<string | null>`NULL`.as("stop_reason"),
    createdAt: sql<Date>`${t}`.as("created_at"),
    updatedAt: sql<Date>`${t}`.as("updated_at"),
  };
}
