import { z } from "zod";

// Schema helpers for formAction's forms. Not a .server module: route modules build their schemas at module level,
// and that code also reaches the browser bundle (a .server import there is empty, so a call to it would throw).
/** A repeated field (checkboxes): absent → [], one value → [value], so the list schema sees a list either way. */
export function asList<S extends z.ZodTypeAny>(schema: S) {
  return z.preprocess((v) => (v === undefined || v === null ? [] : Array.isArray(v) ? v : [v]), schema);
}

/**
 * `schema` with absent fields read as `defaults` (a form always posts its text boxes, "" when empty; a script may
 * post nothing, and must get the same "… is required" answer), and `fix` applied after (an unticked box → "false").
 */
export function withDefaults<S extends z.ZodTypeAny>(
  defaults: Record<string, unknown>,
  schema: S,
  fix: (v: Record<string, unknown>) => Record<string, unknown> = (v) => v,
) {
  return z.preprocess((v) => fix({ ...defaults, ...(typeof v === "object" && v !== null ? v : {}) }), schema);
}

/** What a multi-intent form answers for a button no page has (formIntent's text, kept). */
export const UNKNOWN_ACTION = "Unknown action";
/** `z.discriminatedUnion("intent", …)` whose unknown intent is refused as UNKNOWN_ACTION. */
export const intentError = (message = UNKNOWN_ACTION) => ({ errorMap: () => ({ message }) });

/** A `back` field: where to go after a form that several pages post — only a path on this site, never another origin. */
export const backField = z
  .string()
  .max(300)
  .regex(/^\/(?![/\\])/)
  .optional()
  .catch(undefined);
