import { eq } from "drizzle-orm";
import type { Db } from "./client.server";
import { orgSettings } from "./schema";

// An on/off organisation setting is one org_settings row: "1" when on, no row when off (the default).

/** Whether the flag is on (one primary-key read). */
export async function readOrgFlag(db: Db, key: string): Promise<boolean> {
  const row = await db.select({ value: orgSettings.value }).from(orgSettings).where(eq(orgSettings.key, key)).get();
  return row?.value === "1";
}

/** The statement that turns the flag on or off (for a batch with the change's activity entry). */
export function orgFlagStatement(db: Db, key: string, on: boolean, now: Date) {
  return on
    ? db
        .insert(orgSettings)
        .values({ key, value: "1", updatedAt: now })
        .onConflictDoUpdate({ target: orgSettings.key, set: { value: "1", updatedAt: now } })
    : db.delete(orgSettings).where(eq(orgSettings.key, key));
}
