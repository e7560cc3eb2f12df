import { and, asc, eq, isNotNull, isNull, lte, sql } from "drizzle-orm";
import { runBatch, type Db } from "~/db/client.server";
import { broadcasts, contacts } from "~/db/schema";
import { loadUserContactScope } from "~/contacts/contact-scope.server";
import { loadDefinitions } from "~/segments/segment-access.server";
import { segmentStep } from "~/segments/segment-members.server";
import { withVariablesTerm } from "./check-send-request.server";
import { insertBroadcastMessages } from "./insert-broadcast-messages.server";

/** Due segment broadcasts read per run (through broadcasts_segment_due_idx, oldest due first). */
const DUE_PER_RUN = 5;
const BUDGET_MS = 8000;

/**
 * Tick task (and a "send now" segment broadcast's own request): each due broadcast whose audience is a segment
 * (decision 075) has its contacts read now — one primary-key range of contacts per statement, newest first, the
 * segment's WHERE applied inside the database — and written as `pending` messages due now, which the pipeline's
 * dispatcher queues and the consumer judges (opt-outs, quiet hours, caps) like any broadcast's. Each step's messages,
 * the recipient count and the cursor commit in one batch, so a run cut short resumes where it stopped and writes
 * nothing twice (the `bcast:{id}:{contact}` key). Contacts lacking a contact variable the text needs are left out.
 * An idle tick reads the empty partial index only.
 */
export async function resolveDueSegmentBroadcasts(
  deps: { db: Db; now: Date },
  opts: { only?: number; budgetMs?: number; span?: number } = {},
) {
  const { db, now } = deps;
  const budget = Date.now() + (opts.budgetMs ?? BUDGET_MS);
  const due = await db
    .select()
    .from(broadcasts)
    .where(
      and(
        isNotNull(broadcasts.segmentId),
        isNull(broadcasts.resolvedAt),
        lte(broadcasts.scheduledAt, now),
        opts.only === undefined ? undefined : eq(broadcasts.id, opts.only),
      ),
    )
    .orderBy(asc(broadcasts.scheduledAt))
    .limit(DUE_PER_RUN);
  let written = 0;
  for (const b of due) {
    const def = (await loadDefinitions(db, [b.segmentId!])).get(b.segmentId!);
    if (!def) continue;
    const scope = await loadUserContactScope(db, b.createdBy);
    const present = await withVariablesTerm(db, b.subject, b.content);
    const t = now.getTime();
    let cursor = b.segmentCursor;
    for (;;) {
      const step = segmentStep(db, def, scope, cursor, now, opts.span);
      const who = and(sql`c.id IN ${db.select({ id: contacts.id }).from(contacts).where(step.members)}`, present)!;
      const [, , after] = (await runBatch(db, [
        insertBroadcastMessages(
          db,
          {
            bid: b.id,
            type: b.type,
            subject: b.subject,
            content: b.content,
            status: "pending",
            at: t,
            createdBy: b.createdBy,
            t,
          },
          who,
        ),
        // changes(): the rows the INSERT just above wrote (a key already there, from a run cut short, counts 0).
        db
          .update(broadcasts)
          .set({
            recipientCount: sql`${broadcasts.recipientCount} + changes()`,
            segmentCursor: step.nextCursor,
          })
          .where(eq(broadcasts.id, b.id)),
        db
          .select({ cursor: broadcasts.segmentCursor, n: broadcasts.recipientCount })
          .from(broadcasts)
          .where(eq(broadcasts.id, b.id)),
      ])) as [unknown, unknown, { cursor: number | null; n: number }[]];
      cursor = after[0]?.cursor ?? null;
      if (cursor === null) {
        await db.update(broadcasts).set({ resolvedAt: now }).where(eq(broadcasts.id, b.id));
        written += after[0]?.n ?? 0;
        break;
      }
      if (Date.now() > budget) return { broadcasts: due.length, written, more: true };
    }
  }
  return { broadcasts: due.length, written, more: false };
}
