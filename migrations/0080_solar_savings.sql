-- Public figures per state for the savings estimate (issue 28 item 4, decision 074). Sources, all public:
--   cents_per_kwh: EIA, Electric Power Annual 2023, average residential revenue per kWh by state
--     (https://www.eia.gov/electricity/annual/secrev-map.php, released 2024-10-17); Wyoming from the 2022 table below.
--   monthly_kwh: EIA, Table 5A "Average Monthly Bill - Residential", 2022 (forms EIA-861/861S/861U;
--     https://www.eia.gov/electricity/sales_revenue_price/), average monthly consumption per customer.
--   sun_hours: NREL "Solar Summaries", sheet "GHI State", annual average global horizontal irradiance
--     (kWh/m2/day, 1998-2009; https://www.nrel.gov/gis/data-solar.html). DC, ND, SD and AK have no row there and
--     borrow a neighbour's, said in yield_note.
--   kwh_per_kw = round(sun_hours * 365 * 1.10 * 0.86): a south-facing roof's ~10% gain over a flat surface, less
--     PVWatts' default 14% system losses, 96% inverter efficiency and ~5% for heat (decision 074).
--   "US": the states weighted by their homes (EIA 2022 customer counts): the row for a contact of unknown state.
-- incentive_dollars is 0 everywhere: Helio ships no incentive table it could not source; a superuser sets one per
-- state. The federal homeowner credit (Section 25D) ended for systems paid for after 2025-12-31.
CREATE TABLE `solar_state_data` (
	`state` text PRIMARY KEY NOT NULL,
	`cents_per_kwh` real NOT NULL,
	`price_year` integer NOT NULL,
	`monthly_kwh` integer NOT NULL,
	`usage_year` integer NOT NULL,
	`sun_hours` real NOT NULL,
	`kwh_per_kw` integer NOT NULL,
	`yield_note` text,
	`incentive_dollars` integer DEFAULT 0 NOT NULL,
	`incentive_note` text
) WITHOUT ROWID;
--> statement-breakpoint
INSERT INTO `solar_state_data` (`state`, `cents_per_kwh`, `price_year`, `monthly_kwh`, `usage_year`, `sun_hours`, `kwh_per_kw`, `yield_note`) VALUES
	('AK', 23.9, 2023, 580, 2022, 3.75, 1295, 'Washington''s figure: NREL''s state table has none for Alaska, whose sun is weaker, so this overstates'),
	('AL', 14.63, 2023, 1178, 2022, 4.57, 1578, NULL),
	('AR', 12.25, 2023, 1110, 2022, 4.44, 1533, NULL),
	('AZ', 14.02, 2023, 1061, 2022, 5.64, 1947, NULL),
	('CA', 29.51, 2023, 535, 2022, 5.26, 1816, NULL),
	('CO', 14.3, 2023, 692, 2022, 4.84, 1671, NULL),
	('CT', 29.88, 2023, 716, 2022, 3.88, 1340, NULL),
	('DC', 16.45, 2023, 685, 2022, 4.12, 1423, 'Maryland''s figure: NREL''s state table has none for DC'),
	('DE', 15.73, 2023, 941, 2022, 4.14, 1430, NULL),
	('FL', 15.21, 2023, 1111, 2022, 4.92, 1699, NULL),
	('GA', 13.69, 2023, 1096, 2022, 4.64, 1602, NULL),
	('HI', 42.39, 2023, 515, 2022, 5.22, 1802, NULL),
	('IA', 13.31, 2023, 888, 2022, 3.98, 1374, NULL),
	('ID', 11.05, 2023, 1005, 2022, 4.27, 1474, NULL),
	('IL', 15.71, 2023, 720, 2022, 4.06, 1402, NULL),
	('IN', 14.94, 2023, 950, 2022, 4.0, 1381, NULL),
	('KS', 13.38, 2023, 928, 2022, 4.62, 1595, NULL),
	('KY', 12.65, 2023, 1094, 2022, 4.14, 1430, NULL),
	('LA', 11.55, 2023, 1231, 2022, 4.65, 1606, NULL),
	('MA', 29.61, 2023, 577, 2022, 3.81, 1316, NULL),
	('MD', 16.6, 2023, 968, 2022, 4.12, 1423, NULL),
	('ME', 27.42, 2023, 583, 2022, 3.6, 1243, NULL),
	('MI', 18.84, 2023, 652, 2022, 3.72, 1284, NULL),
	('MN', 14.73, 2023, 773, 2022, 3.71, 1281, NULL),
	('MO', 12.58, 2023, 1077, 2022, 4.25, 1467, NULL),
	('MS', 13.23, 2023, 1186, 2022, 4.57, 1578, NULL),
	('MT', 12.54, 2023, 908, 2022, 3.94, 1360, NULL),
	('NC', 12.93, 2023, 1072, 2022, 4.43, 1530, NULL),
	('ND', 11.01, 2023, 1119, 2022, 3.71, 1281, 'Minnesota''s figure: NREL''s state table has none for North Dakota'),
	('NE', 11.2, 2023, 1043, 2022, 3.67, 1267, NULL),
	('NH', 28.15, 2023, 623, 2022, 3.68, 1271, NULL),
	('NJ', 17.7, 2023, 682, 2022, 4.01, 1385, NULL),
	('NM', 13.85, 2023, 659, 2022, 5.5, 1899, NULL),
	('NV', 16.67, 2023, 939, 2022, 5.16, 1782, NULL),
	('NY', 22.25, 2023, 592, 2022, 3.71, 1281, NULL),
	('OH', 15.38, 2023, 874, 2022, 3.9, 1347, NULL),
	('OK', 12.08, 2023, 1155, 2022, 4.71, 1626, NULL),
	('OR', 12.73, 2023, 946, 2022, 4.28, 1478, NULL),
	('PA', 18.1, 2023, 854, 2022, 3.81, 1316, NULL),
	('RI', 27.02, 2023, 589, 2022, 3.89, 1343, NULL),
	('SC', 13.68, 2023, 1088, 2022, 4.6, 1588, NULL),
	('SD', 12.32, 2023, 1058, 2022, 3.67, 1267, 'Nebraska''s figure: NREL''s state table has none for South Dakota'),
	('TN', 12.19, 2023, 1188, 2022, 4.29, 1481, NULL),
	('TX', 14.46, 2023, 1178, 2022, 5.04, 1740, NULL),
	('UT', 11.2, 2023, 783, 2022, 4.99, 1723, NULL),
	('VA', 14.26, 2023, 1086, 2022, 4.23, 1461, NULL),
	('VT', 20.82, 2023, 568, 2022, 3.6, 1243, NULL),
	('WA', 10.98, 2023, 1013, 2022, 3.75, 1295, NULL),
	('WI', 16.88, 2023, 684, 2022, 3.75, 1295, NULL),
	('WV', 14.05, 2023, 1074, 2022, 3.95, 1364, NULL),
	('WY', 11.09, 2022, 891, 2022, 4.38, 1512, NULL),
	('US', 16.04, 2023, 899, 2022, 4.42, 1526, 'The states'' figures weighted by their homes (EIA 2022 customer counts)');
--> statement-breakpoint
-- The home's own figures (decision 074): its bill and use a month and its utility; null = not known.
ALTER TABLE `contacts` ADD `monthly_bill_cents` integer;
--> statement-breakpoint
ALTER TABLE `contacts` ADD `monthly_kwh` integer;
--> statement-breakpoint
ALTER TABLE `contacts` ADD `utility_name` text;
