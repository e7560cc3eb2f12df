import type { Submission, SubmissionResult } from "@conform-to/react";
import { isAppError } from "~/lib/app-error";
import { REQUIRED_FIELDS_MISSING, type ContactInput, missingRequiredField } from "./contact-schema";

export type Failure = { title: string; description: string };
/** What the add/edit dialogs' action returns when it did not save: conform's reply plus the failure toast. */
export type ContactFormReply = { result: SubmissionResult<string[]>; failure: Failure | null };

// SPEC §8: a failure toast per action, followed by a retry sentence when the cause is unexpected.
const FAILED = { create: "Failed to create contact", update: "Failed to update contact", delete: "Failed to delete contact" } as const;
const RETRY = "Please try again.";
export const CONTACT_DONE = { create: "Contact created", update: "Contact updated", delete: "Contact deleted" } as const;

/** The form did not validate: the field errors, plus SPEC §5's toast when a required field is missing. 400. */
export function invalidContactReply(submission: Submission<ContactInput>): ContactFormReply {
  const missing = submission.status !== "success" && missingRequiredField(submission.error);
  return {
    result: submission.reply(missing ? { formErrors: [REQUIRED_FIELDS_MISSING.description] } : undefined),
    failure: missing ? { ...REQUIRED_FIELDS_MISSING } : null,
  };
}

/**
 * The write failed. An AppError keeps its status and its message (beside the form; the toast adds the retry
 * sentence); anything else is logged and answered as a 500 with the retry sentence only.
 */
export function failedContactReply(submission: Submission<ContactInput>, err: unknown, action: "create" | "update"): { reply: ContactFormReply; status: number } {
  if (err instanceof Response) throw err;
  if (!isAppError(err)) {
    console.error(`contact ${action} failed`, err);
    return { reply: { result: submission.reply({ formErrors: [`${FAILED[action]}. ${RETRY}`] }), failure: { title: FAILED[action], description: RETRY } }, status: 500 };
  }
  return {
    reply: { result: submission.reply({ formErrors: [err.message] }), failure: { title: FAILED[action], description: `${err.message.replace(/\.$/, "")}. ${RETRY}` } },
    status: err.status,
  };
}

/** The delete confirmation failed: the toast (an AppError's own message, else the retry sentence, logged). */
export function failedDeleteReply(err: unknown): { reply: { failure: Failure }; status: number } {
  if (err instanceof Response) throw err;
  if (!isAppError(err)) {
    console.error("contact delete failed", err);
    return { reply: { failure: { title: FAILED.delete, description: RETRY } }, status: 500 };
  }
  return { reply: { failure: { title: FAILED.delete, description: err.message } }, status: err.status };
}
