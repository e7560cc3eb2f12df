import type { Db } from "~/db/client.server";

export type Stats = { messagesSent: number; delivered: number; responses: number; contacts: number };

/**
 * GET /api/stats and the Dashboard's stat cards, from trigger-maintained counters (message_counts, contact_totals):
 * two small reads, whatever the volume. messagesSent = outbound handed to a provider (sent, delivered, undelivered);
 * delivered = outbound delivered; responses = inbound messages received; contacts = all contacts.
 */
export async function getStats(db: Db): Promise<Stats> {
  const [counts, totals] = await db.$client.batch([
    db.$client.prepare(`SELECT direction, status, n FROM message_counts`),
    db.$client.prepare(`SELECT n FROM contact_totals WHERE id = 1`),
  ]);
  const rows = counts.results as { direction: string; status: string; n: number }[];
  const sum = (direction: string, statuses: string[]) =>
    rows.filter((r) => r.direction === direction && statuses.includes(r.status)).reduce((a, r) => a + r.n, 0);
  return {
    messagesSent: sum("outbound", ["sent", "delivered", "undelivered"]),
    delivered: sum("outbound", ["delivered"]),
    responses: sum("inbound", ["received"]),
    contacts: (totals.results[0] as { n: number } | undefined)?.n ?? 0,
  };
}
