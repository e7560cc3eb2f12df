import { useState } from "react";
import { Button } from "~/components/ui";
import { ZonedDateTimeField } from "~/campaigns/schedule-fields";
import { localToUtc } from "~/campaigns/local-time";
import { useHydrated } from "~/lib/use-hydrated";
import { zonedTime } from "./conversation-notes";

/**
 * "Send later" inside the reply form (decision 047): a time in the rep's zone (ZonedDateTimeField: the browser's zone
 * once hydrated, a select of US zones without JS) and intent=later. The contact's local time is shown beside it: the
 * chosen time on their clock with JS, their zone and current time without.
 */
export function SendLaterFields({
  contactZone,
  failure,
  disabled,
}: {
  contactZone: string | null;
  failure: { sendAt?: string; tz?: string; error?: string | null } | null;
  disabled: boolean;
}) {
  const hydrated = useHydrated();
  const [local, setLocal] = useState(failure?.sendAt ?? "");
  const [tz, setTz] = useState(failure?.tz ?? "");
  const zone = tz || (hydrated ? Intl.DateTimeFormat().resolvedOptions().timeZone : "");
  const at = hydrated && local && zone ? localToUtc(local, zone) : null;
  return (
    <details className="rounded-md border border-border p-2" open={Boolean(failure)} data-testid="send-later">
      <summary className="cursor-pointer text-sm font-medium">Send later</summary>
      <div
        className="mt-2 space-y-2"
        onChange={(e) => {
          const t = e.target as HTMLInputElement | HTMLSelectElement;
          if (t.name === "sendAt") setLocal(t.value);
          if (t.name === "tz") setTz(t.value);
        }}
      >
        <ZonedDateTimeField
          label="Send at (your time)"
          name="sendAt"
          id="reply-send-at"
          value={failure?.sendAt ?? ""}
          tz={failure?.tz ?? ""}
          errors={failure?.error ? [failure.error] : null}
        />
        <p className="text-xs text-fg-muted" data-testid="contact-local-time" suppressHydrationWarning>
          {!contactZone
            ? "The contact's time zone is unknown."
            : at
              ? `That is ${zonedTime(at.toISOString(), contactZone)} for the contact.`
              : `The contact's time zone: ${contactZone} (now ${zonedTime(new Date().toISOString(), contactZone)}).`}
        </p>
        <p className="text-xs text-fg-muted">
          It goes through the usual checks when it is sent: quiet hours, opt-outs and sending caps.
        </p>
        <Button type="submit" name="intent" value="later" variant="secondary" size="sm" disabled={disabled}>
          Schedule reply
        </Button>
      </div>
    </details>
  );
}
