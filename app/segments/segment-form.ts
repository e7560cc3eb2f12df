// The segment form's fields → a segment's name and definition (decision 075). Not a .server module: route modules
// build their schemas at module level and the browser bundle keeps that code (decision 030).
import { z } from "zod";
import { MAX_SEGMENT_FIELDS, segmentDefinition, segmentName, type SegmentDefinition } from "./segment-definition";

/** Field tests the form shows (blank rows are ignored). */
export const FORM_FIELD_ROWS = 3;

const text = z.string().max(200, "Keep it under 200 characters").default("");
// A repeated field: absent → [], one value → [value] (the http floor's asList; this floor sits below it).
const list = z.preprocess(
  (v) => (v === undefined || v === null ? [] : Array.isArray(v) ? v : [v]),
  z.array(z.string().max(200)).max(50, "Too many values"),
);

export const segmentFormFields = {
  name: z.string().max(500).default(""),
  stages: list,
  tags: z.string().max(1000, "Keep the tags under 1,000 characters").default(""),
  owner: text,
  touchOp: text,
  touchDays: text,
  reply: text,
  consent: text,
  bill: text,
  field: list,
  op: list,
  value: list,
};

/** Where a definition's issue is shown: the form's field for each part of the definition. */
const FORM_FIELD: Record<string, string> = {
  stages: "stages",
  tags: "tags",
  owner: "owner",
  touch: "touchDays",
  reply: "reply",
  consent: "consent",
  bill: "bill",
  fields: "value",
};

type SegmentFormValues = z.output<z.ZodObject<typeof segmentFormFields>>;

/** The posted form read as a definition (blank choices are "any"), its issues on the form's own fields. */
export function readSegmentForm(f: SegmentFormValues, ctx: z.RefinementCtx) {
  const name = segmentName.safeParse(f.name);
  if (!name.success) {
    ctx.addIssue({ code: "custom", path: ["name"], message: name.error.issues[0].message });
    return z.NEVER;
  }
  const rows = f.field
    .map((field, i) => ({ field, op: f.op[i] ?? "", value: f.value[i] ?? "" }))
    .filter((r) => r.field !== "" && r.op !== "");
  const raw = {
    stages: [...new Set(f.stages.filter(Boolean))],
    tags: [
      ...new Set(
        f.tags
          .split(",")
          .map((t) => t.trim())
          .filter(Boolean),
      ),
    ],
    owner: f.owner === "" ? null : f.owner === "none" ? "none" : Number(f.owner),
    touch: f.touchOp === "" ? null : { op: f.touchOp, days: f.touchDays.trim() === "" ? NaN : Number(f.touchDays) },
    reply: f.reply || null,
    consent: f.consent || null,
    bill: f.bill || null,
    fields: rows.slice(0, MAX_SEGMENT_FIELDS),
  };
  const parsed = segmentDefinition.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    ctx.addIssue({
      code: "custom",
      path: [FORM_FIELD[String(issue.path[0])] ?? "stages"],
      message: issue.path[0] === "owner" ? "Choose one of the team's users" : issue.message,
    });
    return z.NEVER;
  }
  return { name: name.data, definition: parsed.data };
}

export const segmentForm = z.object(segmentFormFields).transform(readSegmentForm);

/** A definition as the form's values (the edit form's defaults). */
export function formValuesOf(d: SegmentDefinition) {
  return {
    stages: d.stages,
    tags: d.tags.join(", "),
    owner: d.owner === null ? "" : String(d.owner),
    touchOp: d.touch?.op ?? "",
    touchDays: d.touch ? String(d.touch.days) : "",
    reply: d.reply ?? "",
    consent: d.consent ?? "",
    bill: d.bill ?? "",
    fields: d.fields,
  };
}
