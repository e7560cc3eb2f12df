import { inArray } from "drizzle-orm";
import type { Db } from "~/db/client.server";
import { inJson } from "~/db/bulk-update.server";
import { contacts, orgSettings, solarStateData } from "~/db/schema";
import { normalizeState, stateForZip } from "~/contacts/us-geo";
import {
  DEFAULT_COST_PER_WATT,
  DEFAULT_ESCALATION_PCT,
  estimateSavings,
  MAX_COST_PER_WATT,
  MAX_ESCALATION_PCT,
  MIN_COST_PER_WATT,
  type SavingsAssumptions,
  type SavingsEstimate,
  type StateSolarData,
} from "./estimate-savings";

// Reading what the savings estimate needs (decision 074): the contacts' own figures by primary key, the team's
// escalation rate (one org_settings key) and the published figures of just the states involved (primary key) — or,
// for the contact page, which does not know its contact's state before its one batch, the whole ≤ 52-row table.

export const ESCALATION_KEY = "savingsEscalationPct";
export const COST_PER_WATT_KEY = "savingsCostPerWatt";
const SETTING_KEYS = [ESCALATION_KEY, COST_PER_WATT_KEY];
/** The national row, for a contact whose state cannot be told from its record or ZIP. */
export const NATIONAL = "US";

const within = (value: string | undefined, min: number, max: number) => {
  const n = value == null ? NaN : Number(value);
  return Number.isFinite(n) && n >= min && n <= max ? n : null;
};

/** The settings' rows (org_settings key/value) → the assumptions, a default for each one unset. */
export function assumptionsFrom(rows: readonly { key: string; value: string }[]): SavingsAssumptions {
  const of = (key: string) => rows.find((r) => r.key === key)?.value;
  const cost = within(of(COST_PER_WATT_KEY), MIN_COST_PER_WATT, MAX_COST_PER_WATT);
  return {
    escalationPct: within(of(ESCALATION_KEY), 0, MAX_ESCALATION_PCT) ?? DEFAULT_ESCALATION_PCT,
    costPerWatt: cost ?? DEFAULT_COST_PER_WATT,
    costIsDefault: cost === null,
  };
}

const homeColumns = {
  id: contacts.id,
  state: contacts.state,
  zipCode: contacts.zipCode,
  monthlyBillCents: contacts.monthlyBillCents,
  monthlyKwh: contacts.monthlyKwh,
};
export type Home = {
  id: number;
  state: string | null;
  zipCode: string | null;
  monthlyBillCents: number | null;
  monthlyKwh: number | null;
};

/** The state whose figures apply: the contact's own, else its ZIP's, else the nation's. */
export const savingsState = (c: Pick<Home, "state" | "zipCode">) =>
  normalizeState(c.state) ?? stateForZip(c.zipCode) ?? NATIONAL;

/**
 * Estimates for these contacts, by id: two round trips (the contacts, then the setting with their states' rows and
 * the national one). A contact without figures uses its state's average home.
 */
export async function estimateContactsSavings(db: Db, contactIds: readonly number[]) {
  if (!contactIds.length) return new Map<number, SavingsEstimate>();
  const homes: Home[] = await db.select(homeColumns).from(contacts).where(inJson(contacts.id, contactIds));
  return estimateHomesSavings(db, homes);
}

/**
 * Estimates for homes whose figures the caller already holds: one round trip, the setting and the states' rows
 * together.
 */
export async function estimateHomesSavings(db: Db, homes: readonly Home[]) {
  if (!homes.length) return new Map<number, SavingsEstimate>();
  const states = [...new Set([...homes.map(savingsState), NATIONAL])];
  const [setting, rows] = await db.batch([
    selectSavingsSettings(db),
    db.select().from(solarStateData).where(inArray(solarStateData.state, states)),
  ]);
  return estimatesFrom(homes, setting, rows);
}

/** The estimates from the rows read: the team's settings and (at least) the homes' states' and the nation's figures. */
export function estimatesFrom(
  homes: readonly Home[],
  setting: readonly { key: string; value: string }[],
  stateRows: readonly StateSolarData[],
) {
  const out = new Map<number, SavingsEstimate>();
  const dataOf = new Map<string, StateSolarData>(stateRows.map((r) => [r.state, r]));
  const assumptions = assumptionsFrom(setting);
  for (const h of homes) {
    const data = dataOf.get(savingsState(h)) ?? dataOf.get(NATIONAL);
    if (data) out.set(h.id, estimateSavings(h, data, assumptions));
  }
  return out;
}

/**
 * What a page that does not know its contact's state yet reads beside it, in its own batch (the contact page): the
 * settings and every state's figures — a reference table of at most 52 rows (the states, DC and the nation), cheaper
 * than a second round trip after the contact (its ZIP may name the state, which only the app can tell).
 */
export const savingsQueries = (db: Db) => [selectSavingsSettings(db), db.select().from(solarStateData)] as const;

export const selectSavingsSettings = (db: Db) =>
  db
    .select({ key: orgSettings.key, value: orgSettings.value })
    .from(orgSettings)
    .where(inArray(orgSettings.key, SETTING_KEYS));

/** The team's escalation rate and price per watt (Organisation settings): two primary-key reads. */
export async function loadSavingsAssumptions(db: Db): Promise<SavingsAssumptions> {
  return assumptionsFrom(await selectSavingsSettings(db));
}
