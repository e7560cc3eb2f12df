import { useRef, useState } from "react";
import { Checkbox, Field, Select, Textarea } from "~/components/ui";
import { smsSegments } from "~/messaging/segments";
import { PLATFORM_VARIABLES } from "~/contacts/variables";
import { useHydrated } from "~/lib/use-hydrated";

export type StepDefaults = {
  name: string;
  messageType: string;
  subject: string | null;
  content: string;
  delayDays: number;
  delayHours: number;
  windowStart: string | null;
  windowEnd: string | null;
  windowWeekdays: boolean;
  /** The step's picture (decision 076), when it has one. */
  picture?: { filename: string } | null;
};

export const EMPTY_STEP: StepDefaults = {
  name: "",
  messageType: "sms",
  subject: "",
  content: "",
  delayDays: 0,
  delayHours: 0,
  windowStart: null,
  windowEnd: null,
  windowWeekdays: false,
};

/** "42 characters · 1 SMS segment (GSM-7)" — of the template text; variables change the length per contact. */
export function segmentLabel(text: string): string {
  const s = smsSegments(text);
  return `${text.length} characters · ${s.segments} SMS segment${s.segments === 1 ? "" : "s"} (${s.encoding})`;
}

/**
 * The fields of a step (the add form and a row being edited). `variables` lists the tokens a step may use: with JS
 * a select inserts `{{name}}` at the cursor and the SMS segment count follows the typing; without JS a reference
 * list shows them (and the saved step shows its count).
 */
export function StepFields({
  idPrefix,
  defaults,
  variables,
  errors,
  onTypeChange,
}: {
  idPrefix: string;
  defaults: StepDefaults;
  variables: string[];
  errors?: { field?: string; message: string } | null;
  /** Lets the screen follow the chosen type (the "Generate with AI" request asks for an SMS or an email draft). */
  onTypeChange?: (type: string) => void;
}) {
  const hydrated = useHydrated();
  const content = useRef<HTMLTextAreaElement>(null);
  const [text, setText] = useState(defaults.content);
  const [type, setType] = useState(defaults.messageType);
  const err = (f: string) => (errors && errors.field === f ? [errors.message] : null);
  const described = PLATFORM_VARIABLES.filter((v) => variables.includes(v.name));

  const insert = (name: string) => {
    const el = content.current;
    if (!el || !name) return;
    const token = `{{${name}}}`;
    const start = el.selectionStart ?? el.value.length;
    const end = el.selectionEnd ?? start;
    const next = el.value.slice(0, start) + token + el.value.slice(end);
    el.value = next;
    setText(next);
    el.focus();
    el.setSelectionRange(start + token.length, start + token.length);
  };

  return (
    <div className="grid gap-3 sm:grid-cols-2">
      <Field label="Step name" id={`${idPrefix}-name`} name="name" defaultValue={defaults.name} errors={err("name")} />
      <Field
        as="select"
        label="Type"
        id={`${idPrefix}-type`}
        name="messageType"
        defaultValue={defaults.messageType}
        onChange={(e) => {
          setType(e.currentTarget.value);
          onTypeChange?.(e.currentTarget.value);
        }}
      >
        <option value="sms">SMS</option>
        <option value="email">Email</option>
      </Field>
      <div className="sm:col-span-2">
        <Field
          label="Subject (email steps)"
          id={`${idPrefix}-subject`}
          name="subject"
          defaultValue={defaults.subject ?? ""}
          errors={err("subject")}
        />
      </div>
      <div className="sm:col-span-2">
        {/* Field has no ref; the variable insert needs the textarea's cursor. */}
        <label htmlFor={`${idPrefix}-content`} className="mb-1 block text-sm font-medium">
          Content
        </label>
        <Textarea
          ref={content}
          id={`${idPrefix}-content`}
          name="content"
          rows={4}
          defaultValue={defaults.content}
          aria-invalid={err("content") ? true : undefined}
          aria-describedby={err("content") ? `${idPrefix}-content-error` : undefined}
          onChange={(e) => setText(e.currentTarget.value)}
        />
        {err("content") ? (
          <p id={`${idPrefix}-content-error`} className="mt-1 text-sm text-danger-text">
            {errors?.message}
          </p>
        ) : null}
        <div className="mt-1 flex flex-wrap items-center justify-between gap-2 text-xs text-fg-muted">
          {hydrated ? (
            <>
              <span data-testid={`${idPrefix}-segments`} aria-live="polite">
                {type === "sms" ? segmentLabel(text) : `${text.length} characters`}
              </span>
              <span className="flex items-center gap-2">
                <label htmlFor={`${idPrefix}-var`}>Insert variable</label>
                <Select
                  id={`${idPrefix}-var`}
                  value=""
                  onChange={(e) => insert(e.currentTarget.value)}
                  className="h-8 w-auto py-0 text-xs"
                >
                  <option value="">Choose…</option>
                  {described.map((v) => (
                    <option key={v.name} value={v.name}>
                      {`{{${v.name}}}`} — {v.description}
                    </option>
                  ))}
                </Select>
              </span>
            </>
          ) : (
            <details>
              <summary className="cursor-pointer">Variables you can type</summary>
              <ul className="mt-1 grid gap-x-4 sm:grid-cols-2">
                {described.map((v) => (
                  <li key={v.name}>
                    <code>{`{{${v.name}}}`}</code> {v.description}
                  </li>
                ))}
              </ul>
            </details>
          )}
        </div>
      </div>
      <Field
        label="Delay days"
        id={`${idPrefix}-days`}
        name="delayDays"
        type="number"
        min={0}
        defaultValue={String(defaults.delayDays)}
        errors={err("delayDays")}
      />
      <Field
        label="Delay hours"
        id={`${idPrefix}-hours`}
        name="delayHours"
        type="number"
        min={0}
        max={23}
        defaultValue={String(defaults.delayHours)}
        errors={err("delayHours")}
      />
      <fieldset className="sm:col-span-2">
        <legend className="text-sm font-medium">Send window (optional, the contact&apos;s time zone)</legend>
        <div className="mt-1 flex flex-wrap items-end gap-3">
          <Field
            label="From"
            id={`${idPrefix}-wstart`}
            name="windowStart"
            type="time"
            defaultValue={defaults.windowStart ?? ""}
            errors={err("windowStart")}
          />
          <Field
            label="To"
            id={`${idPrefix}-wend`}
            name="windowEnd"
            type="time"
            defaultValue={defaults.windowEnd ?? ""}
          />
          <Checkbox
            name="windowWeekdays"
            defaultChecked={defaults.windowWeekdays}
            label="Weekdays only"
            className="pb-2"
          />
        </div>
      </fieldset>
      {/* SMS only; without JS the type cannot hide it, and the server refuses a picture on an email step. */}
      {type === "sms" || !hydrated ? (
        <div className="space-y-2 sm:col-span-2">
          <Field
            label="Picture (optional, SMS steps)"
            id={`${idPrefix}-picture`}
            name="picture"
            type="file"
            accept="image/jpeg,image/png,image/gif"
            hint="Each text of this step carries it as one MMS (JPEG, PNG or GIF, up to 5 MB), billed at the MMS rate."
            errors={err("picture")}
          />
          {defaults.picture ? (
            <Checkbox name="removePicture" value="1" label={`Remove the picture (${defaults.picture.filename})`} />
          ) : null}
        </div>
      ) : null}
    </div>
  );
}
