// A saved segment's definition (issue 28 item 1, decision 075): what the form, the API and the stored JSON share.
// Every part is optional and they AND together; within stages and tags any one matches. Bounded before it is stored.
import { z } from "zod";
import { tagField } from "~/contacts/contact-tag";

export const MAX_SEGMENT_NAME = 80;
export const MAX_SEGMENT_STAGES = 20;
export const MAX_SEGMENT_TAGS = 10;
export const MAX_SEGMENT_FIELDS = 5;
export const MAX_FIELD_VALUE = 100;
/** Saved segments a team keeps: a picker lists them all. */
export const MAX_SEGMENTS = 200;

/** Contact fields a segment may test, with the words the form shows. */
export const SEGMENT_FIELDS = {
  zipCode: "ZIP code",
  state: "State",
  city: "City",
  utilityName: "Utility",
  company: "Company",
  firstName: "First name",
  lastName: "Last name",
  email: "Email",
  address: "Address",
} as const;
export type SegmentField = keyof typeof SEGMENT_FIELDS;

export const FIELD_OPS = {
  startsWith: "starts with",
  equals: "is",
  contains: "contains",
  empty: "is empty",
  notEmpty: "is not empty",
} as const;
export type FieldOp = keyof typeof FIELD_OPS;

export const TOUCH_OPS = {
  none: "no message in the last",
  within: "a message in the last",
} as const;

export const REPLY_STATES = {
  replied: "has replied",
  never: "never replied",
  waiting: "waiting for our answer",
} as const;

export const CONSENT_STATES = {
  marketing: "marketing texts allowed",
  informational: "appointment texts only",
  recorded: "consent on record",
  missing: "no consent on record",
  optedOut: "opted out",
} as const;

export const BILL_STATES = {
  received: "bill photo received",
  missing: "no bill photo yet",
  known: "bill or use known",
} as const;

const keys = <T extends Record<string, string>>(o: T) => Object.keys(o) as [keyof T & string, ...(keyof T & string)[]];

export const fieldCondition = z
  .object({
    field: z.enum(keys(SEGMENT_FIELDS), { errorMap: () => ({ message: "Choose a contact field" }) }),
    op: z.enum(keys(FIELD_OPS), { errorMap: () => ({ message: "Choose how the field is compared" }) }),
    value: z
      .string()
      .max(MAX_FIELD_VALUE, `A value is at most ${MAX_FIELD_VALUE} characters`)
      .transform((v) => v.trim())
      .default(""),
  })
  .refine((c) => c.op === "empty" || c.op === "notEmpty" || c.value !== "", {
    message: "Enter the value to compare the field with",
    path: ["value"],
  });
export type FieldCondition = z.infer<typeof fieldCondition>;

export const segmentDefinition = z
  .object({
    stages: z
      .array(z.string().min(1).max(40))
      .max(MAX_SEGMENT_STAGES, `At most ${MAX_SEGMENT_STAGES} stages`)
      .default([]),
    tags: z.array(tagField).max(MAX_SEGMENT_TAGS, `At most ${MAX_SEGMENT_TAGS} tags`).default([]),
    /** A user's contacts, or the unassigned ones. */
    owner: z
      .union([z.number().int().positive(), z.literal("none")])
      .nullable()
      .default(null),
    /** "No message in the last N days" (a lead gone quiet) or "a message in the last N days". */
    touch: z
      .object({
        op: z.enum(keys(TOUCH_OPS)),
        days: z
          .number({ invalid_type_error: "Enter the number of days" })
          .int("Enter a whole number of days")
          .min(1, "Enter 1 to 3,650 days")
          .max(3650, "Enter 1 to 3,650 days"),
      })
      .nullable()
      .default(null),
    reply: z.enum(keys(REPLY_STATES)).nullable().default(null),
    consent: z.enum(keys(CONSENT_STATES)).nullable().default(null),
    bill: z.enum(keys(BILL_STATES)).nullable().default(null),
    fields: z.array(fieldCondition).max(MAX_SEGMENT_FIELDS, `At most ${MAX_SEGMENT_FIELDS} field tests`).default([]),
  })
  .strict();
export type SegmentDefinition = z.infer<typeof segmentDefinition>;

export const segmentName = z
  .string({ required_error: "Please enter a name" })
  .trim()
  .min(1, "Please enter a name")
  .max(MAX_SEGMENT_NAME, `A name is at most ${MAX_SEGMENT_NAME} characters`);

/** Reads a stored definition; a row written by an older shape reads as what it still says (unknown keys dropped). */
export function readDefinition(json: string): SegmentDefinition {
  let raw: unknown;
  try {
    raw = JSON.parse(json);
  } catch {
    raw = {};
  }
  const parsed = segmentDefinition.safeParse(raw);
  if (parsed.success) return parsed.data;
  return segmentDefinition.parse({});
}

/** True when the definition tests nothing: every contact (the form says so instead of saving a silent "all"). */
export const isEmptyDefinition = (d: SegmentDefinition) =>
  !d.stages.length &&
  !d.tags.length &&
  d.owner === null &&
  !d.touch &&
  !d.reply &&
  !d.consent &&
  !d.bill &&
  !d.fields.length;

/**
 * The definition in plain words, for lists and pickers: "Stage Sat · ZIP code starts with 94 · no message in the last
 * 30 days". Labels come from the caller (stage labels and owner names are data).
 */
export function describeSegment(
  d: SegmentDefinition,
  names: { stage: (key: string) => string; owner: (id: number) => string },
): string {
  const parts: string[] = [];
  if (d.stages.length) parts.push(`Stage ${d.stages.map(names.stage).join(" or ")}`);
  if (d.tags.length) parts.push(`Tagged ${d.tags.map((t) => `“${t}”`).join(" or ")}`);
  if (d.owner !== null) parts.push(d.owner === "none" ? "Unassigned" : `Owner ${names.owner(d.owner)}`);
  if (d.touch) parts.push(`${TOUCH_OPS[d.touch.op]} ${d.touch.days} day${d.touch.days === 1 ? "" : "s"}`);
  if (d.reply) parts.push(REPLY_STATES[d.reply]);
  if (d.consent) parts.push(CONSENT_STATES[d.consent]);
  if (d.bill) parts.push(BILL_STATES[d.bill]);
  for (const f of d.fields)
    parts.push(
      `${SEGMENT_FIELDS[f.field]} ${FIELD_OPS[f.op]}${f.op === "empty" || f.op === "notEmpty" ? "" : ` “${f.value}”`}`,
    );
  const text = parts.join(" · ");
  return text ? text.charAt(0).toUpperCase() + text.slice(1) : "Every contact";
}

/**
 * The parts a contact must still fit to stay in a campaign whose audience is the segment (decision 075): who the
 * contact is (stage, tags, owner, consent, bill, fields). The last-touch and reply tests are left out — the sequence's
 * own texts touch the contact, and a reply already stops it when the campaign says so.
 */
export const stayingPart = (d: SegmentDefinition): SegmentDefinition => ({ ...d, touch: null, reply: null });
