import type { SubmissionResult } from "@conform-to/react";
import type { AppErrorCode } from "~/lib/app-error";

/**
 * The one reply a screen's action gives when it did not do what was asked (app/http/form-action.server.ts makes
 * it): the status is the AppError's (400 for a form that did not parse). Remix renders the route with it as action
 * data, so it shows the same with and without JS: `message` beside `field` (or above the form when there is no
 * field), `title` as the failure toast's title, `fieldErrors` for every field zod refused, `values` what was posted
 * (minus the fields the route hides, e.g. passwords) so the form keeps what was typed.
 */
export type FormFailure = {
  ok: false;
  code: AppErrorCode;
  message: string;
  title?: string;
  field?: string;
  fieldErrors: Record<string, string[]>;
  /** True when the form itself did not parse (zod), false when the domain refused what it asked. */
  invalid: boolean;
  /** The button the form was sent with (multi-intent forms), so only that form shows the error. */
  intent?: string;
  values: Record<string, unknown>;
};

export function isFormFailure(reply: unknown): reply is FormFailure {
  return (
    typeof reply === "object" &&
    reply !== null &&
    (reply as { ok?: unknown }).ok === false &&
    typeof (reply as { message?: unknown }).message === "string"
  );
}

/**
 * A multi-intent screen's failure, split by where it shows: `form` when it came from the `intent` form (which
 * re-renders with it), `other` when a different button (a row's) sent it.
 */
export function failureByIntent(reply: unknown, intent: string): { form?: FormFailure; other?: FormFailure } {
  if (!isFormFailure(reply)) return {};
  return reply.intent === intent ? { form: reply } : { other: reply };
}

/** The errors to show beside `name` (null when none), for Field's `errors`. */
export function fieldErrorsOf(reply: unknown, name: string): string[] | null {
  if (!isFormFailure(reply)) return null;
  return reply.fieldErrors[name]?.length ? reply.fieldErrors[name] : null;
}

/** The message to show above the form: the failure's message unless it belongs to one of `shownFields`. */
export function formErrorOf(reply: unknown, shownFields: readonly string[] = []): string | null {
  if (!isFormFailure(reply)) return null;
  return reply.field && shownFields.includes(reply.field) ? null : reply.message;
}

/** A posted text field back from the failure (for a form re-rendered without JS), else `fallback`. */
export function postedValue(reply: unknown, name: string, fallback = ""): string {
  if (!isFormFailure(reply)) return fallback;
  const v = reply.values[name];
  return typeof v === "string" ? v : fallback;
}

/** A plain `Field`'s name, what was posted (else `fallback`, also for an empty post) and its errors: `{...fieldProps(reply, "url")}`. */
export function fieldProps(reply: unknown, name: string, fallback = "") {
  return { name, defaultValue: postedValue(reply, name) || fallback, errors: fieldErrorsOf(reply, name) ?? undefined };
}

/** A posted checkbox group back from the failure (every value ticked, none when none was), else `fallback`. */
export function postedValues(reply: unknown, name: string, fallback: readonly string[] = []): string[] {
  if (!isFormFailure(reply)) return [...fallback];
  const v = reply.values[name];
  return Array.isArray(v) ? v.map(String) : typeof v === "string" ? [v] : [];
}

/** The failure as conform's `lastResult`, for forms built with useForm. */
export function conformResult(reply: unknown): SubmissionResult<string[]> | undefined {
  if (!isFormFailure(reply)) return undefined;
  return {
    status: "error",
    initialValue: reply.values as SubmissionResult["initialValue"],
    error: { ...reply.fieldErrors, "": reply.field ? [] : [reply.message] },
  };
}

/**
 * The failure as errors by field name with the form-level message under "form" (the shape PersonFields and the
 * account forms take): a message on no field, or on the `intent` button, belongs to the whole form.
 */
export function errorsByField(reply: unknown): Record<string, string[]> {
  if (!isFormFailure(reply)) return {};
  const out: Record<string, string[]> = Object.fromEntries(
    Object.entries(reply.fieldErrors).filter(([k]) => k && k !== "intent"),
  );
  if (!reply.field || reply.field === "intent") out.form = [reply.message];
  return out;
}

/** The failure as a toast (useFailureToast, ConfirmDialog's `error`): its title, else `fallbackTitle`, and its message. */
export function failureToast(reply: unknown, fallbackTitle = "Error"): { title: string; description: string } | null {
  if (!isFormFailure(reply)) return null;
  return { title: reply.title ?? fallbackTitle, description: reply.message };
}
