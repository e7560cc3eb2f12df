// What a STOP covers (issue 29 item 2, decision 072). Under the FCC's current rule a revocation ends the kind of texts
// it answered: a STOP to a marketing text ends marketing, while the appointment texts the homeowner asked for may go
// on. The rule that a revocation ends *every* unrelated text (47 CFR 64.1200(a)(10), "revoke all") is delayed to
// 2027-01-31. Carriers block every text from the number a STOP reached (Twilio 21610), so "per purpose" is honest only
// with a second number for informational texts (its own 10DLC campaign): appointment texts go from it, and a STOP to
// it revokes everything.
import type { MessageKind } from "~/db/schema";

export const STOP_SCOPE_KEY = "stopScope";
export const INFORMATIONAL_SENDER_KEY = "informationalSender";

/** fcc: per purpose until the revoke-all rule takes effect, then all; purpose / all: pinned by a superuser. */
export const STOP_SCOPE_SETTINGS = ["fcc", "purpose", "all"] as const;
export type StopScopeSetting = (typeof STOP_SCOPE_SETTINGS)[number];

/** What one opt-out revoked: every text but compliance answers, or every text but appointment (informational) ones. */
export type OptOutScope = "all" | "marketing";

/** When 47 CFR 64.1200(a)(10)'s revoke-all provision takes effect: 2027-01-31, 00:00 US Eastern. */
export const REVOKE_ALL_FROM = Date.UTC(2027, 0, 31, 5);

export type StopScopeSettings = { setting: StopScopeSetting; informationalSender: string | null };

export const STOP_SCOPE_LABEL: Record<StopScopeSetting, string> = {
  fcc: "Follow the FCC: per purpose until January 31, 2027, then every text",
  purpose: "Per purpose: a STOP to a marketing text ends marketing; appointment texts go on",
  all: "Every text: a STOP ends everything but the confirmation",
};

/** The two settings from the organisation's rows; anything unknown is the default. */
export function stopScopeSettingsFrom(rows: readonly { key: string; value: string }[]): StopScopeSettings {
  const value = (key: string) => rows.find((r) => r.key === key)?.value.trim() || null;
  const setting = value(STOP_SCOPE_KEY);
  return {
    setting: (STOP_SCOPE_SETTINGS as readonly string[]).includes(setting ?? "") ? (setting as StopScopeSetting) : "fcc",
    informationalSender: value(INFORMATIONAL_SENDER_KEY),
  };
}

/** The rule in force at `now`. */
export function stopRuleAt(setting: StopScopeSetting, now: Date): "purpose" | "all" {
  if (setting === "fcc") return now.getTime() < REVOKE_ALL_FROM ? "purpose" : "all";
  return setting;
}

/**
 * What an opt-out that reached `number` (the number the contact texted, or the one a carrier refused from; null when
 * it came another way: the API, a rep, the carrier without a number) revokes. "marketing" only when the rule is per
 * purpose and a separate informational number exists that the opt-out did not reach.
 */
export function optOutScope(s: StopScopeSettings, number: string | null, now: Date): OptOutScope {
  if (stopRuleAt(s.setting, now) === "all" || !s.informationalSender || !number) return "all";
  return number === s.informationalSender ? "all" : "marketing";
}

/** Informational texts: what the homeowner asked for (an appointment's confirmation, reminders and answers). */
export const INFORMATIONAL_KINDS = ["appointment"] as const satisfies readonly MessageKind[];
export const isInformationalKind = (kind: MessageKind) => (INFORMATIONAL_KINDS as readonly string[]).includes(kind);

/** Whether a text of `kind` still goes to a number opted out with `scope` (null on an older opt-out: all). */
export function goesDespiteOptOut(kind: MessageKind, scope: string | null): boolean {
  return scope === "marketing" && isInformationalKind(kind);
}
