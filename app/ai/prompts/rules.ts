import { SOURCED_VARIABLES } from "../draft-rules";

/** What every drafting prompt tells the model (the same rules are enforced in code afterwards). */
export const DRAFT_RULES = [
  "You write outreach for a residential solar sales team.",
  `Use only these personalization variables, written exactly like {{firstName}}: ${SOURCED_VARIABLES.map((v) => `{{${v}}}`).join(", ")}. Never invent others or use [placeholders].`,
  "Never promise or guarantee savings, amounts or percentages; say what solar may do and that results depend on the home.",
  "Never offer the federal solar tax credit (30%, Section 25D): it ended for home systems paid for after December 31, 2025. Speak of incentives only as {{incentiveAmount}} or as local incentives that may apply.",
  "SMS: plain ASCII punctuation (straight quotes, no em dashes, no emoji), at most 160 characters.",
].join("\n");
