import { and, eq, gt, inArray, sql } from "drizzle-orm";
import { CAP_NAMES, capLimitsFrom, capSettingKey, type CapLimits } from "~/caps/caps";
import { bulkInsertSql, inJson } from "~/db/bulk-update.server";
import { orgFlagStatement } from "~/db/org-flag.server";
import { runBatch, type Db } from "~/db/client.server";
import { messages } from "~/db/schema/messages";
import { orgSettings } from "~/db/schema/org-settings";
import { ORG_SETTING_KEYS, type OrgSettings } from "./variable-values";
import { DEFAULT_SMS_SEGMENT_PRICE, priceMicros, SMS_PRICE_KEY } from "./sms-price";
import { AppError } from "~/lib/app-error";
import { settingValue } from "~/lib/setting-value";
import { INFORMATIONAL_SENDER_KEY, STOP_SCOPE_KEY, stopScopeSettingsFrom, type StopScopeSettings } from "./stop-scope";
import {
  LINK_DOMAIN_HINT,
  LINK_DOMAIN_KEY,
  LINK_DOMAIN_RE,
  LINK_TRACKING_OFF_KEY,
  linkTrackingFrom,
} from "./tracked-links";

/** The organisation settings that feed {{company}}, {{companyPhone}} and {{website}} (a handful of rows). */
export async function loadOrgSettings(db: Db): Promise<OrgSettings> {
  return orgSettingsFrom(await selectOrgSettings(db));
}

export type OrgSettingRow = { key: string; value: string };

const settingColumns = { key: orgSettings.key, value: orgSettings.value };

/** The settings read alone, to ride in a D1 batch with other reads (the send consumer's first round trip). */
export function selectOrgSettings(db: Db) {
  return db.select(settingColumns).from(orgSettings);
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
  const rows = await db
    .select(settingColumns)
    .from(orgSettings)
    .where(inArray(orgSettings.key, ["company", "companyPhone"]));
  const { company, companyPhone } = orgSettingsFrom(rows);
  return { company, companyPhone };
}

/** What a STOP covers and the informational number (decision 072): two primary-key reads, on an opt-out only. */
export async function loadStopScopeSettings(db: Db): Promise<StopScopeSettings> {
  return stopScopeSettingsFrom(
    await db
      .select(settingColumns)
      .from(orgSettings)
      .where(inArray(orgSettings.key, [STOP_SCOPE_KEY, INFORMATIONAL_SENDER_KEY])),
  );
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
  await runBatch(db, [
    orgFlagStatement(db, LOCAL_IGNORE_QUIET_HOURS_KEY, on, now),
    ...(on
      ? [
          db
            .update(messages)
            .set({ scheduledAt: now, updatedAt: now })
            .where(
              and(
                // The literal keeps the partial due index usable (a bound status cannot match its WHERE).
                sql`${messages.status} = 'pending'`,
                gt(messages.scheduledAt, now),
                // Any rule's note (decision 060): they all start with the deferral note.
                sql`substr(${messages.errorMessage}, 1, ${deferredNote.length}) = ${deferredNote}`,
              ),
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
  const raw = settingValue(rows, RETENTION_KEY);
  const n = /^\d+$/.test(raw) ? Number(raw) : NaN;
  return n >= MIN_RETENTION_MONTHS && n <= MAX_RETENTION_MONTHS ? n : DEFAULT_RETENTION_MONTHS;
}

export async function loadRetentionMonths(db: Db): Promise<number> {
  return retentionMonthsFrom(
    await db.select(settingColumns).from(orgSettings).where(eq(orgSettings.key, RETENTION_KEY)),
  );
}

export function smsSegmentPriceFrom(rows: readonly OrgSettingRow[]): string {
  const raw = settingValue(rows, SMS_PRICE_KEY);
  return priceMicros(raw) === null ? DEFAULT_SMS_SEGMENT_PRICE : raw;
}

/** The per-segment price the pre-send check multiplies by: one primary-key read. */
export async function loadSmsSegmentPrice(db: Db): Promise<string> {
  return smsSegmentPriceFrom(
    await db.select(settingColumns).from(orgSettings).where(eq(orgSettings.key, SMS_PRICE_KEY)),
  );
}

/** The Message Center's settings: the retention and the local quiet-hours switch, from the settings' one read. */
export function messageCenterSettingsFrom(rows: readonly OrgSettingRow[]) {
  return { retentionMonths: retentionMonthsFrom(rows), localIgnoreQuietHours: localIgnoresQuietHours(rows) };
}

/** The Organisation screen: the variable values, the message retention and the automatic channels' caps, from one read. */
export async function loadOrganisationSettings(db: Db) {
  const rows = await selectOrgSettings(db);
  return {
    settings: orgSettingsFrom(rows),
    messageRetentionMonths: retentionMonthsFrom(rows),
    smsSegmentPrice: smsSegmentPriceFrom(rows),
    capLimits: capLimitsFrom(rows),
    links: linkTrackingFrom(rows),
  };
}

/**
 * Link tracking on or off and the short link domain (decision 068; a blank domain: Helio's own address). Texts
 * already sent keep working: a code names its message, whatever domain carried it.
 */
export async function saveLinkTracking(db: Db, input: { track: boolean; domain: string }, now: Date) {
  const domain = input.domain.trim().toLowerCase();
  if (domain && !LINK_DOMAIN_RE.test(domain))
    throw new AppError("validation", `Link domain: ${LINK_DOMAIN_HINT}`, { field: "linkDomain" });
  await runBatch(db, [
    orgFlagStatement(db, LINK_TRACKING_OFF_KEY, !input.track, now),
    domain
      ? db
          .insert(orgSettings)
          .values({ key: LINK_DOMAIN_KEY, value: domain, updatedAt: now })
          .onConflictDoUpdate({ target: orgSettings.key, set: { value: domain, updatedAt: now } })
      : db.delete(orgSettings).where(eq(orgSettings.key, LINK_DOMAIN_KEY)),
  ]);
}

/**
 * Writes the given settings in one batch; a blank value removes the setting. The retention and each cap limit
 * (decision 021) are written when given.
 */
export async function saveOrgSettings(
  db: Db,
  values: OrgSettings & { messageRetentionMonths?: number; smsSegmentPrice?: string; caps?: Partial<CapLimits> },
  now: Date,
) {
  const t = now.getTime();
  const caps = values.caps ?? {};
  const rows = [
    ...ORG_SETTING_KEYS.map((key) => ({ key, value: values[key]?.trim() ?? "" })),
    ...(values.messageRetentionMonths === undefined
      ? []
      : [{ key: RETENTION_KEY, value: String(values.messageRetentionMonths) }]),
    ...(values.smsSegmentPrice === undefined ? [] : [{ key: SMS_PRICE_KEY, value: values.smsSegmentPrice.trim() }]),
    ...CAP_NAMES.filter((n) => caps[n] !== undefined).map((n) => ({ key: capSettingKey(n), value: String(caps[n]) })),
  ];
  const blank = rows.filter((r) => r.value === "").map((r) => r.key);
  await runBatch(db, [
    db.delete(orgSettings).where(inJson(orgSettings.key, blank)),
    db.run(
      bulkInsertSql(orgSettings, rows, (j) => ({
        values: { key: j.key, value: j.value, updatedAt: t },
        where: sql`${j.value} <> ''`,
        onConflict: sql`ON CONFLICT(key) DO UPDATE SET value = excluded.value, updated_at = excluded.updated_at`,
      })),
    ),
  ]);
}
