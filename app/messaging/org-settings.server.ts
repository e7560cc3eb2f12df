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
  for (const r of rows)
    if ((ORG_SETTING_KEYS as readonly string[]).includes(r.key) && r.value.trim())
      out[r.key as keyof OrgSettings] = r.value.trim();
  return out;
}

/** The business named in STOP/START/HELP answers: two primary-key reads, only when such an answer is sent. */
export async function loadKeywordBrand(db: Db): Promise<{ company?: string; companyPhone?: string }> {
  const rows = await db.all<OrgSettingRow>(
    sql`SELECT key, value FROM org_settings WHERE key IN ('company', 'companyPhone')`,
  );
  const { company, companyPhone } = orgSettingsFrom(rows);
  return { company, companyPhone };
}

/**
 * Local outbox only: marketing texts skip quiet hours, so a developer trying Helio at night sees them go out. Read by
 * the send consumer only when the SMS provider is the outbox — with Twilio configured it has no effect at all.
 */
export const LOCAL_IGNORE_QUIET_HOURS_KEY = "localIgnoreQuietHours";

export function localIgnoresQuietHours(rows: readonly OrgSettingRow[]): boolean {
  return rows.some((r) => r.key === LOCAL_IGNORE_QUIET_HOURS_KEY && r.value === "1");
}

/**
 * Turns the local switch on or off. On, the marketing messages quiet hours deferred are due again at once (the
 * next cron tick sends them): pending rows only, through the partial due index.
 */
export async function setLocalIgnoreQuietHours(db: Db, on: boolean, deferredNote: string, now: Date) {
  const t = now.getTime();
  await runBatch(db, [
    on
      ? db.run(sql`INSERT INTO org_settings (key, value, updated_at) VALUES (${LOCAL_IGNORE_QUIET_HOURS_KEY}, '1', ${t})
                   ON CONFLICT(key) DO UPDATE SET value = '1', updated_at = excluded.updated_at`)
      : db.run(sql`DELETE FROM org_settings WHERE key = ${LOCAL_IGNORE_QUIET_HOURS_KEY}`),
    ...(on
      ? [
          db.run(
            sql`UPDATE messages SET scheduled_at = ${t}, updated_at = ${t} WHERE status = 'pending' AND scheduled_at > ${t} AND error_message = ${deferredNote}`,
          ),
        ]
      : []),
  ]);
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
  return retentionMonthsFrom(
    await db.all<OrgSettingRow>(sql`SELECT key, value FROM org_settings WHERE key = ${RETENTION_KEY}`),
  );
}

/** The Message Center's settings: the retention and the local quiet-hours switch, from one read. */
export async function loadMessageCenterSettings(db: Db) {
  const rows = await selectOrgSettings(db);
  return { retentionMonths: retentionMonthsFrom(rows), localIgnoreQuietHours: localIgnoresQuietHours(rows) };
}

/** The Organisation screen: the variable values, the message retention and the automatic channels' caps, from one read. */
export async function loadOrganisationSettings(db: Db) {
  const rows = await selectOrgSettings(db);
  return {
    settings: orgSettingsFrom(rows),
    messageRetentionMonths: retentionMonthsFrom(rows),
    capLimits: capLimitsFrom(rows),
  };
}

/**
 * Writes the given settings in one batch; a blank value removes the setting. The retention and each cap limit
 * (decision 021) are written when given.
 */
export async function saveOrgSettings(
  db: Db,
  values: OrgSettings & { messageRetentionMonths?: number; caps?: Partial<CapLimits> },
  now: Date,
) {
  const t = now.getTime();
  const caps = values.caps ?? {};
  const json = JSON.stringify([
    ...ORG_SETTING_KEYS.map((key) => ({ key, value: values[key]?.trim() ?? "" })),
    ...(values.messageRetentionMonths === undefined
      ? []
      : [{ key: RETENTION_KEY, value: String(values.messageRetentionMonths) }]),
    ...CAP_NAMES.filter((n) => caps[n] !== undefined).map((n) => ({ key: capSettingKey(n), value: String(caps[n]) })),
  ]);
  await runBatch(db, [
    db.run(
      sql`DELETE FROM org_settings WHERE key IN (SELECT json_extract(value,'$.key') FROM json_each(${json}) WHERE json_extract(value,'$.value') = '')`,
    ),
    db.run(sql`INSERT INTO org_settings (key, value, updated_at)
               SELECT json_extract(value,'$.key'), json_extract(value,'$.value'), ${t} FROM json_each(${json}) WHERE json_extract(value,'$.value') <> ''
               ON CONFLICT(key) DO UPDATE SET value = excluded.value, updated_at = excluded.updated_at`),
  ]);
}
