import { eq } from "drizzle-orm";
import { runBatch, type Db } from "~/db/client.server";
import { contactTotals, messageCounts } from "~/db/schema";

export type Stats = { messagesSent: number; delivered: number; responses: number; contacts: number };

/**
 * GET /api/stats and the Dashboard's stat cards, from trigger-maintained counters (message_counts, contact_totals):
 * two small reads, whatever the volume. messagesSent = outbound handed to a provider (sent, delivered, undelivered);
 * delivered = outbound delivered; responses = inbound messages received; contacts = all contacts.
 */
export async function getStats(db: Db): Promise<Stats> {
  const [counts, totals] = (await runBatch(db, statsStatements(db))) as [CountRow[], TotalRow[]];
  return statsFrom(counts, totals);
}

type CountRow = Pick<typeof messageCounts.$inferSelect, "direction" | "status" | "n">;
type TotalRow = Pick<typeof contactTotals.$inferSelect, "n">;

/** The two reads behind getStats, for a caller that batches them with its own (one D1 round trip). */
export function statsStatements(db: Db) {
  return [
    db
      .select({ direction: messageCounts.direction, status: messageCounts.status, n: messageCounts.n })
      .from(messageCounts),
    db.select({ n: contactTotals.n }).from(contactTotals).where(eq(contactTotals.id, 1)),
  ] as const;
}

export function statsFrom(counts: CountRow[], totals: TotalRow[]): Stats {
  const sum = (direction: string, statuses: string[]) =>
    counts.filter((r) => r.direction === direction && statuses.includes(r.status)).reduce((a, r) => a + r.n, 0);
  return {
    messagesSent: sum("outbound", ["sent", "delivered", "undelivered"]),
    delivered: sum("outbound", ["delivered"]),
    responses: sum("inbound", ["received"]),
    contacts: totals[0]?.n ?? 0,
  };
}
