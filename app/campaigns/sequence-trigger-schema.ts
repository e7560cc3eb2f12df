import { z } from "zod";

// "When this happens → start that sequence" (issue 26 item 3, decision 037). The trigger is a discriminated union so
// issue 28 adds its events as new members without touching the lead path:
//   { on: "tag.added"; tag: string } and { on: "stage.changed"; stage: string } are reserved for it.
export type SequenceTriggerOn = { on: "lead.created"; source: string | null };

export const MAX_SOURCE = 100;
export const MAX_RULE_NAME = 100;
/** Rules are organisation settings, listed whole on their screen: a bound keeps that page and the lookup small. */
export const MAX_RULES = 200;

/** What a rule and an event are compared on: trimmed, lower-case, and '' for any source (or none given). */
export function sourceKey(source: string | null | undefined): string {
  return (source ?? "").trim().toLowerCase().slice(0, MAX_SOURCE);
}

/** The stored columns of a trigger. */
export function triggerColumns(t: SequenceTriggerOn): {
  triggerOn: "lead.created";
  matchKey: string;
  matchValue: string | null;
} {
  const value = t.source?.trim() || null;
  return { triggerOn: t.on, matchKey: sourceKey(value), matchValue: value };
}

/** "New lead from EnergySage" / "New lead from any source". */
export function describeTrigger(t: SequenceTriggerOn): string {
  return t.source ? `New lead from ${t.source}` : "New lead from any source";
}

export const RULE_NAME_REQUIRED = "Please enter a name for the rule";
export const RULE_CAMPAIGN_REQUIRED = "Please choose the sequence to start";

/** The create form (and any JSON caller): a blank source means any source. */
export const createRuleSchema = z.object({
  name: z
    .string()
    .trim()
    .min(1, RULE_NAME_REQUIRED)
    .max(MAX_RULE_NAME, `Name must be at most ${MAX_RULE_NAME} characters`),
  source: z
    .string()
    .trim()
    .max(MAX_SOURCE, `Source must be at most ${MAX_SOURCE} characters`)
    .optional()
    .transform((v) => (v ? v : null)),
  campaignId: z.coerce
    .number({ invalid_type_error: RULE_CAMPAIGN_REQUIRED })
    .int(RULE_CAMPAIGN_REQUIRED)
    .positive(RULE_CAMPAIGN_REQUIRED)
    .max(Number.MAX_SAFE_INTEGER, RULE_CAMPAIGN_REQUIRED),
});
export type CreateRuleInput = z.infer<typeof createRuleSchema>;
