import { Alert } from "~/components/ui";
import type { BroadcastCheck } from "./check-broadcast.server";
import { formatCount } from "~/lib/format-count";

/**
 * The figures of a pre-send check (checkBroadcast): recipients, who is skipped and why, segments and quiet-hour
 * deferrals for SMS, missing values and warnings. The confirm form around it belongs to the screen.
 */
export function PreSendSummary({ check, channel }: { check: BroadcastCheck; channel: "sms" | "email" }) {
  const n = (x: number) => formatCount(x);
  return (
    <>
      <dl className="grid grid-cols-2 gap-x-4 gap-y-1 text-sm sm:grid-cols-3">
        <dt className="text-fg-muted">Recipients</dt>
        <dd data-testid="check-recipients">{n(check.recipients)}</dd>
        <dt className="text-fg-muted">Skipped</dt>
        <dd data-testid="check-skipped">
          {n(check.skipped.total)} (opted out {n(check.skipped.optedOut)}, not sendable {n(check.skipped.notSendable)},
          {check.skipped.noMarketingConsent ? ` appointment texts only ${n(check.skipped.noMarketingConsent)},` : ""}{" "}
          missing variable {n(check.skipped.missingVariable)}
          {check.skipped.notFound ? `, not found ${n(check.skipped.notFound)}` : ""})
        </dd>
        {channel === "sms" ? (
          <>
            <dt className="text-fg-muted">Segments</dt>
            <dd data-testid="check-segments">
              {check.segments.perMessage} per message ({check.segments.encoding ?? "GSM-7"}), {n(check.segments.total)}{" "}
              in total
            </dd>
            {check.cost ? (
              <>
                <dt className="text-fg-muted">Estimated cost</dt>
                <dd data-testid="check-cost">
                  ${check.cost.total} ({n(check.segments.total)} segments × ${check.cost.perSegment}, the price under
                  Organisation)
                </dd>
              </>
            ) : null}
            <dt className="text-fg-muted">Quiet hours</dt>
            <dd data-testid="check-quiet">
              {check.quietHours.deferred
                ? `${n(check.quietHours.deferred)} deferred until ${check.quietHours.until?.replace("T", " ").slice(0, 16)} UTC`
                : "none deferred"}
            </dd>
          </>
        ) : null}
      </dl>
      {Object.keys(check.missingByVariable).length ? (
        <p className="mt-2 text-sm text-fg-muted">
          Missing values:{" "}
          {Object.entries(check.missingByVariable)
            .map(([k, v]) => `{{${k}}} for ${n(v)}`)
            .join(", ")}
        </p>
      ) : null}
      {check.warnings.map((w) => (
        <Alert key={w.code} tone="warning" data-testid="check-warning">
          {w.message}
        </Alert>
      ))}
    </>
  );
}
