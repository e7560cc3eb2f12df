import { isFormFailure } from "~/components/form-failure";
import type { ResponderInput } from "./responder-schema";
import { RESPONDER_TABS, type ResponderTab, type ResponderValues } from "./responder-form";

/** Checkbox fields: absent from a posted form means off. */
export const RESPONDER_FLAGS = [
  "isActive",
  "scheduling.businessHours",
  "aiSettings.useAI",
  "aiSettings.personalization",
  "aiSettings.contextAware",
  "escalation.enabled",
  "analytics.trackEngagement",
  "analytics.trackConversions",
  "analytics.abTestEnabled",
] as const;
const FIELDS = [
  "name",
  "category",
  "triggerType",
  "keywords",
  "conditions.sentiment",
  "conditions.confidence",
  "conditions.timeOfDay",
  "conditions.previousInteractions",
  "aiSettings.responseStyle",
  "aiSettings.maxLength",
  "responses.primary",
  "responses.followUp",
  "responses.escalation",
  "escalation.threshold",
  "escalation.delay",
  "escalation.alertEmails",
  "scheduling.timezone",
  "scheduling.delays.immediate",
  "scheduling.delays.followUp",
  ...RESPONDER_FLAGS,
];

/** Stored/default responder → the form's flat values. */
export function valuesOf(r: ResponderInput): ResponderValues {
  const out: ResponderValues = {};
  for (const f of FIELDS) {
    let cur: unknown = r;
    for (const part of f.split(".")) cur = (cur as Record<string, unknown> | undefined)?.[part];
    out[f] = Array.isArray(cur) ? cur.join(", ") : cur === undefined || cur === null ? "" : String(cur);
  }
  return out;
}

/** A posted field by its dotted name: flat (`values` of a FormFailure) or nested (conform's parse of the form). */
function posted(form: Record<string, unknown>, name: string): unknown {
  if (name in form) return form[name];
  let cur: unknown = form;
  for (const part of name.split("."))
    cur = cur && typeof cur === "object" ? (cur as Record<string, unknown>)[part] : undefined;
  return cur;
}

/** A posted form → its flat values (what the no-JS tab switch re-renders) and the nested responder object. */
export function readResponderForm(form: Record<string, unknown>): {
  values: ResponderValues;
  object: Record<string, unknown>;
  tab: ResponderTab;
  intent: string;
} {
  const text = (name: string) => {
    const v = posted(form, name);
    return typeof v === "string" ? v : "";
  };
  const values: ResponderValues = {};
  for (const f of FIELDS) values[f] = text(f);
  for (const f of RESPONDER_FLAGS) values[f] = posted(form, f) !== undefined ? "true" : "false";
  const object: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(values)) {
    const parts = k.split(".");
    let cur = object;
    for (const p of parts.slice(0, -1)) cur = (cur[p] ??= {}) as Record<string, unknown>;
    cur[parts[parts.length - 1]] = v;
  }
  const intent = text("intent") || "save";
  const requested = intent.startsWith("tab:") ? intent.slice(4) : text("tab") || "basic";
  const tab = (RESPONDER_TABS.some((t) => t.value === requested) ? requested : "basic") as ResponderTab;
  return { values, object, tab, intent };
}

/**
 * What the dialog shows after its action: the posted values and tab (a no-JS tab switch, or a refused save), and a
 * refused save's error — a validation message as the SPEC words it, alone; other failures say what failed first.
 */
export function postedResponder(
  reply: unknown,
): { values: ResponderValues; tab: ResponderTab; error: { title?: string; message: string } | null } | null {
  if (isFormFailure(reply)) {
    const { values, tab } = readResponderForm(reply.values);
    return {
      values,
      tab,
      error: { title: reply.code === "validation" ? undefined : reply.title, message: reply.message },
    };
  }
  if (reply && typeof reply === "object" && "values" in reply && "tab" in reply)
    return { ...(reply as { values: ResponderValues; tab: ResponderTab }), error: null };
  return null;
}
