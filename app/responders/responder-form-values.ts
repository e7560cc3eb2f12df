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

/** A posted form → its flat values (what the no-JS tab switch re-renders) and the nested responder object. */
export function readResponderForm(fd: FormData): { values: ResponderValues; object: Record<string, unknown>; tab: ResponderTab; intent: string } {
  const values: ResponderValues = {};
  for (const f of FIELDS) values[f] = String(fd.get(f) ?? "");
  for (const f of RESPONDER_FLAGS) values[f] = fd.has(f) ? "true" : "false";
  const object: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(values)) {
    const parts = k.split(".");
    let cur = object;
    for (const p of parts.slice(0, -1)) cur = (cur[p] ??= {}) as Record<string, unknown>;
    cur[parts[parts.length - 1]] = v;
  }
  const intent = String(fd.get("intent") ?? "save");
  const requested = intent.startsWith("tab:") ? intent.slice(4) : String(fd.get("tab") ?? "basic");
  const tab = (RESPONDER_TABS.some((t) => t.value === requested) ? requested : "basic") as ResponderTab;
  return { values, object, tab, intent };
}
