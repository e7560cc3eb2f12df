import { eq } from "drizzle-orm";
import { contacts } from "~/db/schema";
import { HELD } from "~/caps/caps";
import { hitNamedCap } from "~/caps/hit-cap.server";
import { loadCapLimits } from "~/caps/load-cap-limits.server";
import { recordHeld } from "~/caps/record-held.server";
import { AppError } from "~/lib/app-error";
import type { ReplyDeps } from "~/responders/reply-deps";
import { ALERT_TOASTS, MESSAGE_REQUIRED } from "./alert-schema";
import { alertEmail, evaluateAlert, recordAlert, type AlertEvaluation } from "./run-alerts.server";

export const TEST_ALERT_LIMIT = "Too many test alerts";

export type TestAlertResult = AlertEvaluation & {
  alertId: number | null;
  sentTo: string | null;
  wouldSend: { subject: string; content: string; autoResponse: string | null } | null;
};

/**
 * A test smart alert: the message evaluated like an inbound reply (banks, profiles, priority, category, the
 * classifier), and — when anything matched — an alert recorded and emailed to the sales alert address.
 * Nothing is texted to the contact. Each user runs at most `testAlertPerUser` an hour (decision 021): a test may
 * call the AI classifier and always emails the sales address.
 */
export async function runTestAlert(
  deps: ReplyDeps,
  input: { message: string; contactId?: number | null },
  userId: number,
): Promise<TestAlertResult> {
  const message = input.message.trim();
  if (!message) throw new AppError("validation", MESSAGE_REQUIRED, { title: MESSAGE_REQUIRED, field: "message" });
  const limits = await (deps.capLimits ?? (() => loadCapLimits(deps.db)))();
  const cap = await hitNamedCap(deps.db, "testAlertPerUser", String(userId), limits, deps.now);
  if (!cap.allowed) {
    await recordHeld(deps.db, HELD.testAlert, `user:${userId}`, deps.now, { limit: cap.limit }, userId);
    const retryAfter = Math.max(1, Math.ceil((cap.resetAt - deps.now.getTime()) / 1000));
    throw new AppError(
      "rate_limited",
      `Test alert limit reached (${cap.limit} per hour). Try again in ${Math.ceil(retryAfter / 60)} minutes.`,
      {
        retryAfter,
        title: TEST_ALERT_LIMIT,
      },
    );
  }
  let contact: { id: number; phone: string | null; name: string | null } | null = null;
  if (input.contactId) {
    const row = await deps.db
      .select({ id: contacts.id, phone: contacts.phone, firstName: contacts.firstName, lastName: contacts.lastName })
      .from(contacts)
      .where(eq(contacts.id, input.contactId))
      .get();
    if (!row) throw new AppError("validation", "Contact not found", { field: "contactId" });
    contact = { id: row.id, phone: row.phone, name: [row.firstName, row.lastName].filter(Boolean).join(" ") || null };
  }
  const classify = deps.classify;
  const ev = await evaluateAlert(deps, message, () => (classify ? classify(message, null) : null));
  const src = {
    inboundId: null,
    contactId: contact?.id ?? null,
    phone: contact?.phone ?? null,
    content: message,
    name: contact?.name ?? "Test contact",
    isTest: true,
  };
  if (!ev.priority) return { ...ev, alertId: null, sentTo: null, wouldSend: null };
  const to = deps.config.salesAlertEmail;
  if (!to) throw new AppError("unavailable", ALERT_TOASTS.testFailedText, { title: ALERT_TOASTS.testFailed });
  const email = alertEmail(deps, src, ev);
  let outcome;
  try {
    outcome = await recordAlert(deps, src, ev, { answered: true, to: [to] });
  } catch (err) {
    throw new AppError("unavailable", ALERT_TOASTS.testFailedText, { title: ALERT_TOASTS.testFailed, cause: err });
  }
  return {
    ...ev,
    alertId: outcome?.alertId ?? null,
    sentTo: to,
    wouldSend: { ...email, autoResponse: ev.banks.find((b) => b.autoResponse)?.autoResponse ?? null },
  };
}
