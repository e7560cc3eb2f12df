import { CheckboxList, Field } from "~/components/ui";
import { fieldErrorsOf, postedValue, postedValues } from "~/components/form-failure";
import {
  BILL_STATES,
  CONSENT_STATES,
  FIELD_OPS,
  MAX_SEGMENT_NAME,
  REPLY_STATES,
  SEGMENT_FIELDS,
  TOUCH_OPS,
  type SegmentDefinition,
} from "./segment-definition";
import { FORM_FIELD_ROWS, formValuesOf } from "./segment-form";

const options = (o: Record<string, string>) => Object.entries(o).map(([value, label]) => ({ value, label }));

/**
 * The segment form's fields (create and edit, decision 075): plain controls, so it works without JavaScript; a refused
 * post comes back with what was typed and the message beside its field. Blank choices mean "any".
 */
export function SegmentFields({
  name,
  definition,
  reply,
  stages,
  owners,
  idPrefix,
}: {
  name: string;
  definition: SegmentDefinition | null;
  /** The refused post, when this form was the one refused. */
  reply?: unknown;
  stages: { key: string; label: string }[];
  owners: { id: number; name: string }[];
  /** Keeps ids unique when two forms share a page. */
  idPrefix: string;
}) {
  const v = definition ? formValuesOf(definition) : null;
  const val = (field: string, fallback: string) => (reply ? postedValue(reply, field) : fallback);
  const rows = reply
    ? postedValues(reply, "field").map((field, i) => ({
        field,
        op: postedValues(reply, "op")[i] ?? "",
        value: postedValues(reply, "value")[i] ?? "",
      }))
    : (v?.fields ?? []);
  const err = (f: string) => fieldErrorsOf(reply, f);
  type Choice = "owner" | "reply" | "touchOp" | "consent" | "bill";
  /** A "blank means any" select of the definition, as posted when refused. */
  const choice = (field: Choice, label: string, choices: { value: string | number; label: string }[], any = "Any") => (
    <Field
      as="select"
      label={label}
      name={field}
      id={`${idPrefix}-${field.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}`}
      placeholder={any}
      defaultValue={val(field, v?.[field] ?? "")}
      errors={err(field)}
      options={choices}
    />
  );
  return (
    <div className="space-y-4">
      <Field
        label="Name"
        name="name"
        id={`${idPrefix}-name`}
        required
        maxLength={MAX_SEGMENT_NAME}
        defaultValue={val("name", name)}
        errors={err("name")}
        placeholder="Sat, not sold, in 94…"
      />
      <CheckboxList
        name="stages"
        label="Stage (any of these)"
        showLabel
        maxHeightClass="max-h-48"
        items={stages.map((s) => ({ value: s.key, label: s.label }))}
        checked={new Set(reply ? postedValues(reply, "stages") : (v?.stages ?? []))}
        errors={err("stages")}
        data-testid="segment-stages"
      />
      <Field
        label="Tags (any of these, separated by commas)"
        name="tags"
        id={`${idPrefix}-tags`}
        defaultValue={val("tags", v?.tags ?? "")}
        errors={err("tags")}
      />
      <div className="grid gap-4 sm:grid-cols-2">
        {choice(
          "owner",
          "Owner",
          [{ value: "none", label: "Unassigned" }, ...owners.map((o) => ({ value: o.id, label: o.name }))],
          "Anyone",
        )}
        {choice("reply", "Reply", options(REPLY_STATES))}
        {choice("touchOp", "Last message", options(TOUCH_OPS), "Any time")}
        <Field
          label="Days"
          name="touchDays"
          id={`${idPrefix}-touch-days`}
          inputMode="numeric"
          defaultValue={val("touchDays", v?.touchDays ?? "")}
          errors={err("touchDays")}
          hint="With “no message in the last”: 30 finds leads gone quiet a month."
        />
        {choice("consent", "Consent", options(CONSENT_STATES))}
        {choice("bill", "Bill", options(BILL_STATES))}
      </div>
      <fieldset className="min-w-0 space-y-2">
        <legend className="text-sm font-medium">Contact fields (all of these)</legend>
        {Array.from({ length: FORM_FIELD_ROWS }, (_, i) => {
          const r = rows[i];
          return (
            <div key={i} className="grid gap-2 sm:grid-cols-3" data-testid="segment-field-row">
              <Field
                as="select"
                label={`Field ${i + 1}`}
                hideLabel
                name="field"
                id={`${idPrefix}-field-${i}`}
                placeholder="Field…"
                defaultValue={r?.field ?? ""}
                options={options(SEGMENT_FIELDS)}
              />
              <Field
                as="select"
                label={`Test ${i + 1}`}
                hideLabel
                name="op"
                id={`${idPrefix}-op-${i}`}
                placeholder="Test…"
                defaultValue={r?.op ?? ""}
                options={options(FIELD_OPS)}
              />
              <Field
                label={`Value ${i + 1}`}
                hideLabel
                name="value"
                id={`${idPrefix}-value-${i}`}
                defaultValue={r?.value ?? ""}
                placeholder="94"
              />
            </div>
          );
        })}
        {err("value") ? <p className="text-sm text-danger">{err("value")![0]}</p> : null}
      </fieldset>
    </div>
  );
}
