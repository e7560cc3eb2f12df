import { and, desc, eq, lt } from "drizzle-orm";
import type { Db } from "~/db/client.server";
import { alerts, alertSubjectColumns, contacts, users } from "~/db/schema";
import { epochMs } from "~/db/stored-values.server";

export type AlertListItem = Awaited<ReturnType<typeof listAlerts>>["alerts"][number];

/** One page of alerts, newest first (keyset on id); `status` filters through alerts_status_idx. */
export async function listAlerts(
  db: Db,
  opts: { status?: "unacknowledged" | "acknowledged"; after?: number; limit?: number } = {},
) {
  const limit = Math.min(opts.limit ?? 25, 100);
  const rows = await db
    .select({
      ...alertSubjectColumns,
      intent: alerts.intent,
      sentiment: alerts.sentiment,
      confidence: alerts.confidence,
      status: alerts.status,
      verdict: alerts.verdict,
      escalatedAt: epochMs(alerts.escalatedAt),
      acknowledgedAt: epochMs(alerts.acknowledgedAt),
      isTest: alerts.isTest,
      createdAt: epochMs(alerts.createdAt),
      firstName: contacts.firstName,
      lastName: contacts.lastName,
      // Owner first (decision 050): who got it first, and what became of the profile's recipients.
      ownerFirstName: users.firstName,
      ownerLastName: users.lastName,
      deferredTo: alerts.deferredTo,
      deferredDueAt: epochMs(alerts.deferredDueAt),
      deferredOutcome: alerts.deferredOutcome,
    })
    .from(alerts)
    .leftJoin(contacts, eq(contacts.id, alerts.contactId))
    .leftJoin(users, eq(users.id, alerts.ownerUserId))
    .where(
      and(opts.status ? eq(alerts.status, opts.status) : undefined, opts.after ? lt(alerts.id, opts.after) : undefined),
    )
    .orderBy(desc(alerts.id))
    .limit(limit + 1);
  const more = rows.length > limit;
  const page = rows.slice(0, limit);
  return { alerts: page, nextCursor: more ? page[page.length - 1].id : null };
}
