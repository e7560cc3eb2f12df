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
          <Field
            as="select"
            label="Category"
            name="category"
            defaultValue={v("category")}
            options={choices(RESPONDER_CATEGORIES)}
          />
          <Field
            as="select"
            label="Trigger type"
            name="triggerType"
            defaultValue={v("triggerType")}
            options={choices(TRIGGER_TYPES)}
          />
        </div>
        <Field
          label="Keywords"
          name="keywords"
          defaultValue={v("keywords")}
          hint="Separate with commas; matched as whole words, any case."
        />
        <div className="grid gap-3 sm:grid-cols-2">
          <Field
            as="select"
            label="Sentiment"
            name="conditions.sentiment"
            defaultValue={v("conditions.sentiment")}
            options={choices(SENTIMENTS)}
          />
          <Field
            label="Confidence threshold (0–100)"
            name="conditions.confidence"
            type="number"
            min={0}
            max={100}
            defaultValue={v("conditions.confidence")}
          />
          <Field
            as="select"
            label="Time of day"
            name="conditions.timeOfDay"
            defaultValue={v("conditions.timeOfDay")}
            options={choices(TIME_RESTRICTIONS)}
          />
          <Field
            as="select"
            label="Previous interactions"
            name="conditions.previousInteractions"
            defaultValue={v("conditions.previousInteractions")}
            options={choices(PREVIOUS_INTERACTIONS)}
          />
          <Field
            as="select"
            label="Time zone"
            name="scheduling.timezone"
            defaultValue={v("scheduling.timezone")}
            options={choices(TIMEZONES, TIMEZONE_LABELS)}
          />
        </div>
        <Check name="scheduling.businessHours" values={values}>
          Only during business hours (Mon–Fri 9:00–17:00)
        </Check>
        <Check name="isActive" values={values}>
          Active
        </Check>
      </div>
      <div {...panel("ai")} className="space-y-3">
        <Check name="aiSettings.useAI" values={values}>
          Draft replies with AI (falls back to the written response)
        </Check>
        <div className="grid gap-3 sm:grid-cols-2">
          <Field
            as="select"
            label="Response style"
            name="aiSettings.responseStyle"
            defaultValue={v("aiSettings.responseStyle")}
            options={choices(RESPONSE_STYLES)}
          />
          <Field
            label="Max length (50–500)"
            name="aiSettings.maxLength"
            type="number"
            min={50}
            max={500}
            defaultValue={v("aiSettings.maxLength")}
          />
        </div>
        <Check name="aiSettings.personalization" values={values}>
          Personalization
        </Check>
        <Check name="aiSettings.contextAware" values={values}>
          Context aware
        </Check>
      </div>
      <div {...panel("responses")} className="space-y-3">
        <Field
          as="textarea"
          label="Primary response"
          name="responses.primary"
          rows={3}
          defaultValue={v("responses.primary")}
        />
        <Field
          as="textarea"
          label="Follow-up"
          name="responses.followUp"
          rows={2}
          defaultValue={v("responses.followUp")}
        />
        <Field
          as="textarea"
          label="Escalation response"
          name="responses.escalation"
          rows={2}
          defaultValue={v("responses.escalation")}
        />
        <div className="grid gap-3 sm:grid-cols-2">
          <Field
            label="Immediate delay (0–60 s)"
            name="scheduling.delays.immediate"
            type="number"
            min={0}
            max={60}
            defaultValue={v("scheduling.delays.immediate")}
          />
          <Field
            label="Follow-up delay (1–1440 min)"
            name="scheduling.delays.followUp"
            type="number"
            min={1}
            max={1440}
            defaultValue={v("scheduling.delays.followUp")}
          />
        </div>
      </div>
      <div {...panel("escalation")} className="space-y-3">
        <Check name="escalation.enabled" values={values}>
          Escalate to a person
        </Check>
        <div className="grid gap-3 sm:grid-cols-2">
          <Field
            label="Threshold (1–10)"
            name="escalation.threshold"
            type="number"
            min={1}
            max={10}
            defaultValue={v("escalation.threshold")}
          />
          <Field
            label="Delay (0–1440 min)"
            name="escalation.delay"
            type="number"
            min={0}
            max={1440}
            defaultValue={v("escalation.delay")}
          />
        </div>
        <Field
          label="Alert emails"
          name="escalation.alertEmails"
          defaultValue={v("escalation.alertEmails")}
          hint="Separate with commas."
        />
      </div>
      <div {...panel("analytics")} className="space-y-3">
        <Check name="analytics.trackEngagement" values={values}>
          Track engagement
        </Check>
        <Check name="analytics.trackConversions" values={values}>
          Track conversions
        </Check>
        <Check name="analytics.abTestEnabled" values={values}>
          A/B test
        </Check>
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
