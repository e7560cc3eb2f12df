import { integer, real, sqliteTable, text } from "drizzle-orm/sqlite-core";

/**
 * Public figures per state for the savings estimate (issue 28 item 4, decision 074, migration 0080 names each
 * source): EIA's average residential price and use, NREL's sunshine and the yield per kW made from it, and a state
 * incentive (0 unless a superuser sets one). "US" is the national row, for a contact whose state is unknown. Read by
 * primary key, or whole (≤ 52 rows) in the contact page's batch (decision 082).
 */
export const solarStateData = sqliteTable("solar_state_data", {
  state: text("state").primaryKey(),
  centsPerKwh: real("cents_per_kwh").notNull(),
  priceYear: integer("price_year").notNull(),
  monthlyKwh: integer("monthly_kwh").notNull(),
  usageYear: integer("usage_year").notNull(),
  /** NREL's annual average global horizontal irradiance, kWh/m²/day. */
  sunHours: real("sun_hours").notNull(),
  kwhPerKw: integer("kwh_per_kw").notNull(),
  /** Set when the state borrows another's sunshine figure. */
  yieldNote: text("yield_note"),
  incentiveDollars: integer("incentive_dollars").notNull().default(0),
  incentiveNote: text("incentive_note"),
});

export type SolarStateDataRow = typeof solarStateData.$inferSelect;
