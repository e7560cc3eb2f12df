import { sql } from "drizzle-orm";
import { CAP_NAMES, capLimitsFrom, capSettingKey, type CapLimits } from "~/caps/caps";
import { runBatch, type Db } from "~/db/client.server";
import { ORG_SETTING_KEYS, type OrgSettings } from "./variable-values";

/** The organisation settings that feed {{company}}, {{companyPhone}} and {{website}} (a handful of rows). */
export async function loadOrgSettings(db: Db): Promise<OrgSettings> {
  return orgSettingsFrom(await selectOrgSettings(db));
}

export type OrgSettingRow = { key: string; value: string };

/** The settings read alone, to ride in a D1 batch with other reads (the send consumer's first round trip). */
export function selectOrgSettings(db: Db) {
  return db.all<OrgSettingRow>(sql`SELECT key, value FROM org_settings`);
}

export function orgSettingsFrom(rows: readonly OrgSettingRow[]): OrgSettings {
  const out: OrgSettings = {};
  for (const r of rows) if ((ORG_SETTING_KEYS as readonly string[]).includes(r.key) && r.value.trim()) out[r.key as keyof OrgSettings] = r.value.trim();
  return out;
}

/** How long messages stay in D1 before the archive task moves them to R2 (migration 0042, decision 017). */
export const RETENTION_KEY = "messageRetentionMonths";
export const DEFAULT_RETENTION_MONTHS = 18;
export const MIN_RETENTION_MONTHS = 3;
export const MAX_RETENTION_MONTHS = 120;

/** The stored retention in whole months, or the default when it is missing or out of range. */
export function retentionMonthsFrom(rows: readonly OrgSettingRow[]): number {
  const raw = rows.find((r) => r.key === RETENTION_KEY)?.value.trim() ?? "";
  const n = /^\d+$/.test(raw) ? Number(raw) : NaN;
  return n >= MIN_RETENTION_MONTHS && n <= MAX_RETENTION_MONTHS ? n : DEFAULT_RETENTION_MONTHS;
}

export async function loadRetentionMonths(db: Db): Promise<number> {
  return retentionMonthsFrom(await db.all<OrgSettingRow>(sql`SELECT key, value FROM org_settings WHERE key = ${RETENTION_KEY}`));
}

/** The Organisation screen: the variable values, the message retention and the automatic channels' caps, from one read. */
export async function loadOrganisationSettings(db: Db) {
  const rows = await selectOrgSettings(db);
  return { settings: orgSettingsFrom(rows), messageRetentionMonths: retentionMonthsFrom(rows), capLimits: capLimitsFrom(rows) };
}

/**
 * Writes the given settings in one batch; a blank value removes the setting. The retention and each cap limit
 * (decision 021) are written when given.
 */
export async function saveOrgSettings(db: Db, values: OrgSettings & { messageRetentionMonths?: number; caps?: Partial<CapLimits> }, now: Date) {
  const t = now.getTime();
  const caps = values.caps ?? {};
  const json = JSON.stringify([
    ...ORG_SETTING_KEYS.map((key) => ({ key, value: values[key]?.trim() ?? "" })),
    ...(values.messageRetentionMonths === undefined ? [] : [{ key: RETENTION_KEY, value: String(values.messageRetentionMonths) }]),
    ...CAP_NAMES.filter((n) => caps[n] !== undefined).map((n) => ({ key: capSettingKey(n), value: String(caps[n]) })),
  ]);
  await runBatch(db, [
    db.run(sql`DELETE FROM org_settings WHERE key IN (SELECT json_extract(value,'$.key') FROM json_each(${json}) WHERE json_extract(value,'$.value') = '')`),
    db.run(sql`INSERT INTO org_settings (key, value, updated_at)
               SELECT json_extract(value,'$.key'), json_extract(value,'$.value'), ${t} FROM json_each(${json}) WHERE json_extract(value,'$.value') <> ''
               ON CONFLICT(key) DO UPDATE SET value = excluded.value, updated_at = excluded.updated_at`),
  ]);
}
