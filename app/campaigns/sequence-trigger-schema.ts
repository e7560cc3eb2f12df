import { z } from "zod";
import { tagField } from "~/contacts/contact-tag";

// "When this happens → start that sequence" (issue 26 item 3, decision 037). The trigger is a discriminated union:
// issue 28 added a stage reached and an appointment missed (decision 059), and a tag given to a contact.
export type SequenceTriggerOn =
  | { on: "lead.created"; source: string | null }
  | { on: "stage.changed"; stage: string; label?: string }
  | { on: "appointment.no_show" }
  // A tracked link's first click (decision 068): in one campaign's texts, or in any text (null).
  | { on: "link.clicked"; campaignId: number | null; label?: string }
  // A contact got this tag (normalised, app/contacts/contact-tag.ts).
  | { on: "tag.added"; tag: string };
export const TRIGGER_CHOICES = [
  { value: "lead.created", label: "A new lead arrives" },
  { value: "stage.changed", label: "A contact moves to a stage" },
  { value: "appointment.no_show", label: "An appointment is a no-show" },
  { value: "link.clicked", label: "A contact clicks a link" },
  { value: "tag.added", label: "A contact gets a tag" },
] as const;

export const MAX_SOURCE = 100;
export const MAX_RULE_NAME = 100;
/** Rules are organisation settings, listed whole on their screen: a bound keeps that page and the lookup small. */
export const MAX_RULES = 200;

/** What a rule and an event are compared on: trimmed, lower-case, and '' for any source (or none given). */
export function sourceKey(source: string | null | undefined): string {
  return (source ?? "").trim().toLowerCase().slice(0, MAX_SOURCE);
}

/** The stored columns of a trigger: what an event must carry (`matchKey`) and the value as typed. */
export function triggerColumns(t: SequenceTriggerOn): {
  triggerOn: SequenceTriggerOn["on"];
  matchKey: string;
  matchValue: string | null;
} {
  if (t.on === "stage.changed") return { triggerOn: t.on, matchKey: t.stage, matchValue: t.stage };
  if (t.on === "appointment.no_show") return { triggerOn: t.on, matchKey: "", matchValue: null };
  if (t.on === "tag.added") return { triggerOn: t.on, matchKey: t.tag, matchValue: t.tag };
  if (t.on === "link.clicked") {
    const id = t.campaignId === null ? null : String(t.campaignId);
    return { triggerOn: t.on, matchKey: id ?? "", matchValue: id };
  }
  const value = t.source?.trim() || null;
  return { triggerOn: t.on, matchKey: sourceKey(value), matchValue: value };
}

/** The trigger a stored rule describes. */
export function triggerOf(r: { triggerOn: SequenceTriggerOn["on"]; matchValue: string | null }): SequenceTriggerOn {
  if (r.triggerOn === "stage.changed") return { on: r.triggerOn, stage: r.matchValue ?? "" };
  if (r.triggerOn === "appointment.no_show") return { on: r.triggerOn };
  if (r.triggerOn === "tag.added") return { on: r.triggerOn, tag: r.matchValue ?? "" };
  if (r.triggerOn === "link.clicked")
    return { on: r.triggerOn, campaignId: r.matchValue ? Number(r.matchValue) : null };
  return { on: r.triggerOn, source: r.matchValue };
}

/** "New lead from EnergySage", "Moves to Sat", "Appointment no-show", "Clicks a link in Spring promo". */
export function describeTrigger(t: SequenceTriggerOn): string {
  if (t.on === "stage.changed") return `Moves to ${t.label ?? t.stage}`;
  if (t.on === "appointment.no_show") return "Appointment no-show";
  if (t.on === "tag.added") return `Gets the tag “${t.tag}”`;
  if (t.on === "link.clicked")
    return t.campaignId === null
      ? "Clicks a link in any text"
      : `Clicks a link in ${t.label ?? `sequence #${t.campaignId}`}`;
  return t.source ? `New lead from ${t.source}` : "New lead from any source";
}

export const RULE_NAME_REQUIRED = "Please enter a name for the rule";
export const RULE_CAMPAIGN_REQUIRED = "Please choose the sequence to start";

/** The create form (and any JSON caller): a blank source means any source; a stage rule names its stage. */
export const createRuleSchema = z.object({
  on: z
    .enum(["lead.created", "stage.changed", "appointment.no_show", "link.clicked", "tag.added"])
    .default("lead.created"),
  /** For a tag rule: the tag (normalised); blank is refused where the rule is made. */
  tag: z.preprocess((v) => (v === "" || v === null ? undefined : v), tagField.optional()),
  /** For a click rule: the sequence whose texts' links count; blank = a link in any text. */
  clickedIn: z.preprocess(
    (v) => (v === "" || v === null ? undefined : v),
    z.coerce.number().int().positive().max(Number.MAX_SAFE_INTEGER).optional(),
  ),
  stage: z
    .string()
    .trim()
    .max(40)
    .optional()
    .transform((v) => (v ? v : null)),
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
/** What creating a rule takes: a lead rule needs only name, source and campaign (the form's defaults). */
export type CreateRuleInput = Omit<z.infer<typeof createRuleSchema>, "on" | "stage" | "clickedIn" | "tag"> &
  Partial<Pick<z.infer<typeof createRuleSchema>, "on" | "stage" | "clickedIn" | "tag">>;
