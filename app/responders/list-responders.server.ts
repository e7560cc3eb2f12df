import { desc } from "drizzle-orm";
import type { Db } from "~/db/client.server";
import { autoResponders } from "~/db/schema";

/** Responders are few (a team's handful of rules): the list is bounded rather than paged. */
export const MAX_RESPONDERS = 200;

export async function listResponders(db: Db) {
  return db.select().from(autoResponders).orderBy(desc(autoResponders.id)).limit(MAX_RESPONDERS);
}
