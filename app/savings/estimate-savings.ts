import { formatCount } from "~/lib/format-count";
// Solar savings from public data (issue 28 item 4, decision 074): from a home's monthly bill or usage and its state's
// published figures (EIA price and usage, NREL yield, LBNL installed cost), the numbers a setter quotes — system
// size, first-year and 25-year savings, payback and incentive — each with the basis it came from. Pure.

/** One state's published figures (a `solar_state_data` row); "US" is the national row for an unknown state. */
export type StateSolarData = {
  state: string;
  /** Average residential retail price, cents per kWh (EIA), and its year. */
  centsPerKwh: number;
  priceYear: number;
  /** Average residential use per customer, kWh per month (EIA), and its year. */
  monthlyKwh: number;
  usageYear: number;
  /** Annual AC output per kW of panels (kWh/kW/year), from NREL's sunshine figure. */
  kwhPerKw: number;
  yieldNote: string | null;
  /** A state incentive for a home system, whole dollars (0: none set). */
  incentiveDollars: number;
  incentiveNote: string | null;
};

/**
 * What the team sets (Organisation → Savings estimates): how fast power prices rise, and its installed price per
 * watt — an installer knows its own price better than any state median (decision 074).
 */
export type SavingsAssumptions = { escalationPct: number; costPerWatt: number; costIsDefault?: boolean };

export const DEFAULT_ESCALATION_PCT = 2.5;
export const MAX_ESCALATION_PCT = 10;
export const DEFAULT_COST_PER_WATT = 3.5;
export const MIN_COST_PER_WATT = 0.5;
export const MAX_COST_PER_WATT = 10;
/** Panels lose about half a percent of their output a year (NREL's review of field data, median 0.5 %/yr). */
export const DEGRADATION_PCT = 0.5;
export const SAVINGS_YEARS = 25;
/** The bounds of what a contact's bill and usage may be (a home, not a factory). */
export { MAX_MONTHLY_BILL_DOLLARS, MAX_MONTHLY_KWH } from "~/contacts/home-usage";
/** A state's incentive a superuser may set, and its source note (Organisation → Savings estimates). */
export const MAX_STATE_INCENTIVE_DOLLARS = 50_000;
export const MAX_INCENTIVE_NOTE = 200;

/** The home's own figures; each may be unknown. */
export type HomeUsage = { monthlyBillCents: number | null; monthlyKwh: number | null };

export type SavingsEstimate = {
  systemKw: number;
  yearOneDollars: number;
  lifetimeDollars: number;
  /** Years until the savings repay the system's cost net of the incentive; null when not within 25 years. */
  paybackYears: number | null;
  grossCostDollars: number;
  incentiveDollars: number;
  annualKwh: number;
  /** Where the usage came from. */
  usageFrom: "usage" | "bill" | "state average";
  data: StateSolarData;
  assumptions: SavingsAssumptions;
};

const round = (n: number, step: number) => Math.round(n / step) * step;

/**
 * The estimate: usage from the home's kWh, else its bill at the state's price, else the state's average home; a
 * system that covers that usage at the state's yield; first-year savings as that usage at the state's price
 * (retail-rate net metering); 25 years of it, prices rising by the team's rate and output falling 0.5 %/yr; the cost
 * at the team's price per watt less the state incentive; payback when the running savings reach that cost.
 */
export function estimateSavings(
  home: HomeUsage,
  data: StateSolarData,
  assumptions: SavingsAssumptions,
): SavingsEstimate {
  const price = data.centsPerKwh / 100;
  const usageFrom = home.monthlyKwh ? "usage" : home.monthlyBillCents ? "bill" : "state average";
  const monthlyKwh = home.monthlyKwh ?? (home.monthlyBillCents ? home.monthlyBillCents / 100 / price : data.monthlyKwh);
  const annualKwh = Math.round(monthlyKwh * 12);
  // To a tenth of a kW, at least one panel's worth.
  const systemKw = Math.max(0.4, round(annualKwh / data.kwhPerKw, 0.1));
  const produced = systemKw * data.kwhPerKw;
  const yearOne = Math.min(produced, annualKwh) * price;
  const grossCost = systemKw * 1000 * assumptions.costPerWatt;
  const incentive = Math.min(data.incentiveDollars, grossCost);
  const netCost = grossCost - incentive;
  const growth = (1 + assumptions.escalationPct / 100) * (1 - DEGRADATION_PCT / 100);
  let lifetime = 0;
  let paybackYears: number | null = null;
  for (let year = 0; year < SAVINGS_YEARS; year++) {
    const saving = yearOne * growth ** year;
    if (paybackYears === null && lifetime + saving >= netCost)
      paybackYears = year + (saving > 0 ? (netCost - lifetime) / saving : 0);
    lifetime += saving;
  }
  return {
    systemKw: Number(systemKw.toFixed(1)),
    yearOneDollars: round(yearOne, 10),
    lifetimeDollars: round(lifetime, 100),
    paybackYears: paybackYears === null ? null : Number(paybackYears.toFixed(1)),
    grossCostDollars: round(grossCost, 100),
    incentiveDollars: incentive,
    annualKwh,
    usageFrom,
    data,
    assumptions,
  };
}

const dollars = (n: number) => `$${formatCount(Math.round(n))}`;

/** The Solar variables as a message quotes them: "7.2 kW", "$1,450", "$32,000", "8.4 years", "$0". */
export function savingsVariables(e: SavingsEstimate): Record<SavingsVariable, string> {
  return {
    systemSize: `${e.systemKw.toFixed(1)} kW`,
    yearOneSavings: dollars(e.yearOneDollars),
    estimatedSavings: dollars(e.lifetimeDollars),
    paybackPeriod: e.paybackYears === null ? `over ${SAVINGS_YEARS} years` : `${e.paybackYears.toFixed(1)} years`,
    incentiveAmount: dollars(e.incentiveDollars),
  };
}

/** The variables this feature computes for a contact whose own field is blank. */
export const SAVINGS_VARIABLES = [
  "systemSize",
  "yearOneSavings",
  "estimatedSavings",
  "paybackPeriod",
  "incentiveAmount",
] as const;
export type SavingsVariable = (typeof SAVINGS_VARIABLES)[number];

const where = (d: StateSolarData) => (d.state === "US" ? "the US" : d.state);

/** Where each number came from, in the words shown beside it. */
export function savingsBasis(e: SavingsEstimate): Record<SavingsVariable, string> {
  const d = e.data;
  const usage =
    e.usageFrom === "usage"
      ? `${formatCount(Math.round(e.annualKwh / 12))} kWh a month (the contact's usage)`
      : e.usageFrom === "bill"
        ? `${formatCount(Math.round(e.annualKwh / 12))} kWh a month (the contact's bill at ${d.centsPerKwh.toFixed(2)}¢/kWh)`
        : `${formatCount(d.monthlyKwh)} kWh a month (the average home in ${where(d)}, EIA ${d.usageYear})`;
  return {
    systemSize: `Covers ${usage} at ${formatCount(d.kwhPerKw)} kWh per kW a year (NREL sunshine, ${d.yieldNote ?? where(d)})`,
    yearOneSavings: `${formatCount(e.annualKwh)} kWh a year at ${where(d)}'s average ${d.centsPerKwh.toFixed(2)}¢/kWh (EIA ${d.priceYear}), with full retail credit for what the panels send back`,
    estimatedSavings: `${SAVINGS_YEARS} years of it, prices rising ${e.assumptions.escalationPct}% a year and output falling ${DEGRADATION_PCT}% a year; before the system's cost`,
    paybackPeriod: `A cost of ${dollars(e.grossCostDollars)} (${e.systemKw.toFixed(1)} kW at $${e.assumptions.costPerWatt.toFixed(2)}/W, ${e.assumptions.costIsDefault ? "Helio's default: set your price on Organisation" : "your price"})${e.incentiveDollars ? ` less ${dollars(e.incentiveDollars)} of incentives` : ""}, repaid by the yearly savings; the federal credit (§25D) ended for purchases after 2025`,
    incentiveAmount: d.incentiveDollars
      ? (d.incentiveNote ?? `A ${where(d)} incentive`)
      : `No state incentive in Helio's table for ${where(d)}; the federal credit (§25D) ended for purchases after 2025`,
  };
}
