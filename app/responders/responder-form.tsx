import { Form } from "@remix-run/react";
import type { ReactNode } from "react";
import { Alert, Button, DialogClose, DialogFooter, Field, cx, focusRing } from "~/components/ui";
import {
  PREVIOUS_INTERACTIONS,
  RESPONDER_CATEGORIES,
  RESPONSE_STYLES,
  SENTIMENTS,
  TIME_RESTRICTIONS,
  TIMEZONE_LABELS,
  TIMEZONES,
  TRIGGER_TYPES,
} from "./responder-schema";

export const RESPONDER_TABS = [
  { value: "basic", label: "Basic" },
  { value: "ai", label: "AI Settings" },
  { value: "responses", label: "Responses" },
  { value: "escalation", label: "Escalation" },
  { value: "analytics", label: "Analytics" },
] as const;
export type ResponderTab = (typeof RESPONDER_TABS)[number]["value"];

/** Flat form values, keyed by the field names the form posts ("conditions.sentiment", …). */
export type ResponderValues = Record<string, string>;

const label = (v: string) => v.replace(/_/g, " ").replace(/\b\w/g, (c) => c.toUpperCase());
const choices = (xs: readonly string[], names?: Record<string, string>) =>
  xs.map((x) => ({ value: x, label: names?.[x] ?? label(x) }));

function Check({ name, values, children }: { name: string; values: ResponderValues; children: ReactNode }) {
  return (
    <label className="flex items-center gap-2 text-sm">
      <input
        type="checkbox"
        name={name}
        defaultChecked={values[name] === "true" || values[name] === "on"}
        className="size-4"
      />
      {children}
    </label>
  );
}

/**
 * The responder dialog's form: all five tabs' fields in one form, the inactive ones hidden, so switching tabs
 * never loses what was typed. The tab buttons submit `intent=tab:<name>` (without JS the action re-renders with
 * the posted values); with JS they switch in place.
 */
export function ResponderForm({
  values,
  tab,
  error,
  submitLabel,
}: {
  values: ResponderValues;
  tab: ResponderTab;
  error?: { title?: string; message: string } | null;
  submitLabel: string;
}) {
  const v = (name: string) => values[name] ?? "";
  const panel = (name: ResponderTab) => ({ hidden: tab !== name, "data-tab-panel": name });
  // One line a field: every field's default is its posted value, so only the label, name and kind differ.
  const select = (label: string, name: string, options: { value: string; label: string }[]) => (
    <Field as="select" label={label} name={name} defaultValue={v(name)} options={options} />
  );
  const num = (label: string, name: string, min: number, max: number) => (
    <Field label={label} name={name} type="number" min={min} max={max} defaultValue={v(name)} />
  );
  const area = (label: string, name: string, rows: number) => (
    <Field as="textarea" label={label} name={name} rows={rows} defaultValue={v(name)} />
  );
  const checks = (list: [name: string, label: string][]) =>
    list.map(([name, text]) => (
      <Check key={name} name={name} values={values}>
        {text}
      </Check>
    ));
  return (
    <Form method="post" className="space-y-4" data-testid="responder-form">
      <input type="hidden" name="tab" value={tab} />
      <div role="tablist" aria-label="Auto-responder settings" className="flex flex-wrap gap-1 border-b border-border">
        {RESPONDER_TABS.map((t) => (
          <button
            key={t.value}
            type="submit"
            name="intent"
            value={`tab:${t.value}`}
            role="tab"
            aria-selected={tab === t.value}
            formNoValidate
            className={cx(
              "-mb-px border-b-2 px-3 py-2 text-sm",
              focusRing,
              tab === t.value ? "border-primary font-semibold" : "border-transparent text-fg-muted",
            )}
          >
            {t.label}
          </button>
        ))}
      </div>
      {error ? (
        <Alert tone="danger" role="alert">
          {error.title ? <strong>{error.title}: </strong> : null}
          {error.message}
        </Alert>
      ) : null}
      <div {...panel("basic")} className="space-y-3">
        {/* Not `required`: the browser's bubble would pre-empt SPEC §8's one message for name, keywords and response. */}
        <Field label="Name" name="name" defaultValue={v("name")} />
        <div className="grid gap-3 sm:grid-cols-2">
          {select("Category", "category", choices(RESPONDER_CATEGORIES))}
          {select("Trigger type", "triggerType", choices(TRIGGER_TYPES))}
        </div>
        <Field
          label="Keywords"
          name="keywords"
          defaultValue={v("keywords")}
          hint="Separate with commas; matched as whole words, any case."
        />
        <div className="grid gap-3 sm:grid-cols-2">
          {select("Sentiment", "conditions.sentiment", choices(SENTIMENTS))}
          {num("Confidence threshold (0–100)", "conditions.confidence", 0, 100)}
          {select("Time of day", "conditions.timeOfDay", choices(TIME_RESTRICTIONS))}
          {select("Previous interactions", "conditions.previousInteractions", choices(PREVIOUS_INTERACTIONS))}
          {select("Time zone", "scheduling.timezone", choices(TIMEZONES, TIMEZONE_LABELS))}
        </div>
        {checks([
          ["scheduling.businessHours", "Only during business hours (Mon–Fri 9:00–17:00)"],
          ["isActive", "Active"],
        ])}
      </div>
      <div {...panel("ai")} className="space-y-3">
        {checks([["aiSettings.useAI", "Draft replies with AI (falls back to the written response)"]])}
        <div className="grid gap-3 sm:grid-cols-2">
          {select("Response style", "aiSettings.responseStyle", choices(RESPONSE_STYLES))}
          {num("Max length (50–500)", "aiSettings.maxLength", 50, 500)}
        </div>
        {checks([
          ["aiSettings.personalization", "Personalization"],
          ["aiSettings.contextAware", "Context aware"],
        ])}
      </div>
      <div {...panel("responses")} className="space-y-3">
        {area("Primary response", "responses.primary", 3)}
        {area("Follow-up", "responses.followUp", 2)}
        {area("Escalation response", "responses.escalation", 2)}
        <div className="grid gap-3 sm:grid-cols-2">
          {num("Immediate delay (0–60 s)", "scheduling.delays.immediate", 0, 60)}
          {num("Follow-up delay (1–1440 min)", "scheduling.delays.followUp", 1, 1440)}
        </div>
      </div>
      <div {...panel("escalation")} className="space-y-3">
        {checks([["escalation.enabled", "Escalate to a person"]])}
        <div className="grid gap-3 sm:grid-cols-2">
          {num("Threshold (1–10)", "escalation.threshold", 1, 10)}
          {num("Delay (0–1440 min)", "escalation.delay", 0, 1440)}
        </div>
        <Field
          label="Alert emails"
          name="escalation.alertEmails"
          defaultValue={v("escalation.alertEmails")}
          hint="Separate with commas."
        />
      </div>
      <div {...panel("analytics")} className="space-y-3">
        {checks([
          ["analytics.trackEngagement", "Track engagement"],
          ["analytics.trackConversions", "Track conversions"],
          ["analytics.abTestEnabled", "A/B test"],
        ])}
      </div>
      <DialogFooter>
        <DialogClose>Cancel</DialogClose>
        <Button type="submit" name="intent" value="save">
          {submitLabel}
        </Button>
      </DialogFooter>
    </Form>
  );
}
