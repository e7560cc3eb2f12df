import { sql } from "drizzle-orm";
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

/** Writes the given settings in one batch; a blank value removes the setting. */
export async function saveOrgSettings(db: Db, values: OrgSettings, now: Date) {
  const t = now.getTime();
  const json = JSON.stringify(ORG_SETTING_KEYS.map((key) => ({ key, value: values[key]?.trim() ?? "" })));
  await runBatch(db, [
    db.run(sql`DELETE FROM org_settings WHERE key IN (SELECT json_extract(value,'$.key') FROM json_each(${json}) WHERE json_extract(value,'$.value') = '')`),
    db.run(sql`INSERT INTO org_settings (key, value, updated_at)
               SELECT json_extract(value,'$.key'), json_extract(value,'$.value'), ${t} FROM json_each(${json}) WHERE json_extract(value,'$.value') <> ''
               ON CONFLICT(key) DO UPDATE SET value = excluded.value, updated_at = excluded.updated_at`),
  ]);
}
