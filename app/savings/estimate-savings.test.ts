import { describe, expect, it } from "vitest";
import { estimateSavings, savingsBasis, savingsVariables, type StateSolarData } from "./estimate-savings";

// Three states' rows as migration 0080 ships them, and the arithmetic done by hand for each (decision 074).
const row = (state: string, centsPerKwh: number, monthlyKwh: number, kwhPerKw: number): StateSolarData => ({
  state,
  centsPerKwh,
  priceYear: 2023,
  monthlyKwh,
  usageYear: 2022,
  kwhPerKw,
  yieldNote: null,
  incentiveDollars: 0,
  incentiveNote: null,
});
const CA = row("CA", 29.51, 535, 1817);
const TX = row("TX", 14.46, 1178, 1741);
const MA = row("MA", 29.61, 577, 1317);
const team = { escalationPct: 2.5, costPerWatt: 3.5 };

describe("estimateSavings — hand-computed examples", () => {
  it("California, a $200 bill", () => {
    // $200 / $0.2951 = 677.74 kWh a month → 8,133 kWh a year; / 1,817 kWh/kW = 4.48 → 4.5 kW (makes 8,176.5 kWh,
    // more than the home uses, so the savings are the use): 8,133 × $0.2951 = $2,400.05 → $2,400.
    // 25 years at ×(1.025 × 0.995) = ×1.019875 a year: $2,400.05 × (1.019875^25 − 1) / 0.019875 = $76,751.67 → $76,800.
    // Cost 4,500 W × $3.50 = $15,750; the first six years save $15,135.0, the seventh $2,700.8: 6 + 615 / 2,700.8 = 6.2.
    const e = estimateSavings({ monthlyBillCents: 20_000, monthlyKwh: null }, CA, team);
    expect(e).toMatchObject({
      usageFrom: "bill",
      annualKwh: 8133,
      systemKw: 4.5,
      yearOneDollars: 2400,
      lifetimeDollars: 76_800,
      grossCostDollars: 15_800,
      paybackYears: 6.2,
      incentiveDollars: 0,
    });
    expect(savingsVariables(e)).toEqual({
      systemSize: "4.5 kW",
      yearOneSavings: "$2,400",
      estimatedSavings: "$76,800",
      paybackPeriod: "6.2 years",
      incentiveAmount: "$0",
    });
  });

  it("Texas, 1,500 kWh a month: the panels make less than the home uses, so the savings are what they make", () => {
    // 18,000 kWh / 1,741 = 10.34 → 10.3 kW → 17,932.3 kWh × $0.1446 = $2,593.01 → $2,590; 25 years → $82,922 →
    // $82,900; cost 10,300 × $3.50 = $36,050, repaid in the 13th year: 12.4.
    const e = estimateSavings({ monthlyBillCents: 99_999, monthlyKwh: 1500 }, TX, team);
    expect(e).toMatchObject({
      usageFrom: "usage",
      annualKwh: 18_000,
      systemKw: 10.3,
      yearOneDollars: 2590,
      lifetimeDollars: 82_900,
      paybackYears: 12.4,
    });
  });

  it("Massachusetts, nothing known of the home: the state's average home", () => {
    // 577 kWh × 12 = 6,924 kWh; / 1,317 = 5.26 → 5.3 kW; 6,924 × $0.2961 = $2,050.20 → $2,050; → $65,564 → $65,600;
    // cost 5,300 × $3.50 = $18,550, repaid at 8.4 years.
    const e = estimateSavings({ monthlyBillCents: null, monthlyKwh: null }, MA, team);
    expect(e).toMatchObject({
      usageFrom: "state average",
      systemKw: 5.3,
      yearOneDollars: 2050,
      lifetimeDollars: 65_600,
      paybackYears: 8.4,
    });
    expect(savingsBasis(e).systemSize).toContain("577 kWh a month (the average home in MA, EIA 2022)");
  });

  it("an incentive shortens the payback; savings that never repay the cost say so", () => {
    const withIncentive = estimateSavings(
      { monthlyBillCents: 20_000, monthlyKwh: null },
      { ...CA, incentiveDollars: 3000, incentiveNote: "A state rebate" },
      team,
    );
    expect(withIncentive.paybackYears).toBeLessThan(6.2);
    expect(savingsVariables(withIncentive).incentiveAmount).toBe("$3,000");
    expect(savingsBasis(withIncentive).incentiveAmount).toBe("A state rebate");
    // 6,000 kWh at 11¢ saves ~$654 a year, falling with the panels' output: ~$15,400 in 25 years against $46,000.
    const cheapPower = estimateSavings({ monthlyBillCents: null, monthlyKwh: 500 }, row("WA", 10.98, 1013, 1295), {
      escalationPct: 0,
      costPerWatt: 10,
    });
    expect(cheapPower.paybackYears).toBeNull();
    expect(savingsVariables(cheapPower).paybackPeriod).toBe("over 25 years");
  });

  it("the basis never promises the federal credit", () => {
    const b = savingsBasis(estimateSavings({ monthlyBillCents: null, monthlyKwh: null }, MA, team));
    expect(b.incentiveAmount).toMatch(/federal credit \(§25D\) ended/);
    expect(b.paybackPeriod).toMatch(/federal credit \(§25D\) ended/);
  });
});
