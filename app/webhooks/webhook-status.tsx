import { ActiveBadge, Badge } from "~/components/ui";

/** A subscription's state on both webhook screens: on/off, its events, and why it was turned off (if it was). */
export function WebhookStatus({
  subscription: s,
}: {
  subscription: { enabled: boolean; events: readonly string[]; disabledReason: string | null };
}) {
  return (
    <>
      <div className="flex flex-wrap gap-2">
        <ActiveBadge active={s.enabled} />
        {s.events.map((e) => (
          <Badge key={e}>{e}</Badge>
        ))}
      </div>
      {s.disabledReason ? <p className="text-sm text-danger">{s.disabledReason}</p> : null}
    </>
  );
}
