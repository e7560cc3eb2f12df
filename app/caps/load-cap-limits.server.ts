import { inJson } from "~/db/bulk-update.server";
import type { Db } from "~/db/client.server";
import { orgSettings } from "~/db/schema";
import { CAP_SETTING_KEYS, capLimitsFrom, type CapLimits } from "./caps";

/** The organisation's cap limits (defaults where unset): the few `cap.*` rows of org_settings, by primary key. */
export async function loadCapLimits(db: Db): Promise<CapLimits> {
  const rows = await db
    .select({ key: orgSettings.key, value: orgSettings.value })
    .from(orgSettings)
    .where(inJson(orgSettings.key, CAP_SETTING_KEYS));
  return capLimitsFrom(rows);
}

/** Loads the limits once for everything that shares it (one inbound batch, one request). */
export function capLimitsLoader(db: Db): () => Promise<CapLimits> {
  let p: Promise<CapLimits> | null = null;
  return () => (p ??= loadCapLimits(db));
}
