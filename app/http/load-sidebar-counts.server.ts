import type { Db } from "~/db/client.server";
import { selectUnreadInQueue } from "~/conversations/count-unread-conversations.server";
import { selectUnacknowledgedCount } from "~/responders/alerts/count-unacknowledged.server";

/**
 * The sidebar's badges on every page: unacknowledged smart alerts (the bell) and the user's unread conversations,
 * Mine plus Unassigned (decision 046). One D1 batch — one round trip instead of three; each D1 call costs the Worker
 * ~0.3 ms of CPU on top of the query (decision 062).
 */
export async function loadSidebarCounts(db: Db, userId: number, now: Date) {
  const [bell, mine, unassigned] = await db.batch([
    selectUnacknowledgedCount(db),
    selectUnreadInQueue(db, "mine", userId, now),
    selectUnreadInQueue(db, "unassigned", userId, now),
  ]);
  return { unacknowledged: bell[0]?.n ?? 0, unread: (mine[0]?.n ?? 0) + (unassigned[0]?.n ?? 0) };
}
