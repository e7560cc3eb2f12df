import { sql } from "drizzle-orm";
import type { Db } from "~/db/client.server";
import { CAP_SETTING_KEYS, capLimitsFrom, type CapLimits } from "./caps";

/** The organisation's cap limits (defaults where unset): the few `cap.*` rows of org_settings, by primary key. */
export async function loadCapLimits(db: Db): Promise<CapLimits> {
  const rows = await db.all<{ key: string; value: string }>(sql`
    SELECT key, value FROM org_settings WHERE key IN (SELECT value FROM json_each(${JSON.stringify(CAP_SETTING_KEYS)}))`);
  return capLimitsFrom(rows);
}

/** Loads the limits once for everything that shares it (one inbound batch, one request). */
export function capLimitsLoader(db: Db): () => Promise<CapLimits> {
  let p: Promise<CapLimits> | null = null;
  return () => (p ??= loadCapLimits(db));
}
