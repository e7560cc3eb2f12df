import { Form } from "@remix-run/react";
import { Badge, Button, HiddenFields, Select, cx } from "~/components/ui";
import { LocalTime } from "~/components/local-time";
import { ZonedDateTimeField } from "~/campaigns/schedule-fields";

/** Where every close / snooze / reopen form posts (a resource route; the answer redirects to `back`). */
export const QUEUE_STATE_ACTION = "/messages/conversations/state";

/** The snooze choices of a row (value: minutes); the conversation screen adds a date and time of the rep's choosing. */
export const SNOOZE_CHOICES = [
  { value: "60", label: "1 hour" },
  { value: "240", label: "4 hours" },
  { value: "1440", label: "1 day" },
  { value: "10080", label: "1 week" },
] as const;

type QueueItem = { id: number; state: "open" | "snoozed" | "closed"; snoozedUntil: string | null };

/** "Snoozed until …" (in the reader's zone once hydrated, UTC labelled before) or "Closed"; nothing while open. */
export function QueueStateBadge({ item }: { item: QueueItem }) {
  if (item.state === "closed") return <Badge>Closed</Badge>;
  if (item.state === "snoozed" && item.snoozedUntil)
    return (
      <Badge tone="info">
        Snoozed until <LocalTime iso={item.snoozedUntil} />
      </Badge>
    );
  return null;
}

/**
 * Close, snooze or reopen one conversation (decision 046): plain POST forms, so they work without JS. `of` names the
 * conversation for the buttons' accessible names in a list; `pickTime` adds the date-time field (the conversation
 * screen). The buttons carry `data-queue-action` for the list's keyboard shortcuts.
 */
export function QueueActions({
  item,
  back,
  of,
  pickTime = false,
  className,
}: {
  item: QueueItem;
  back: string;
  of?: string;
  pickTime?: boolean;
  className?: string;
}) {
  const hidden = { id: item.id, back };
  return (
    <div className={cx("flex flex-wrap items-end gap-2", className)} data-testid="queue-actions">
      {item.state !== "closed" ? <StateButton intent="close" label="Close" fields={hidden} of={of} /> : null}
      {item.state !== "open" ? <StateButton intent="reopen" label="Reopen" fields={hidden} of={of} /> : null}
      <Form method="post" action={QUEUE_STATE_ACTION} className="flex flex-wrap items-end gap-2">
        <HiddenFields fields={hidden} />
        <label className="sr-only" htmlFor={`snooze-for-${item.id}`}>
          Snooze for
        </label>
        <Select id={`snooze-for-${item.id}`} name="for" defaultValue="1440" className="h-8 w-auto text-sm">
          {SNOOZE_CHOICES.map((c) => (
            <option key={c.value} value={c.value}>
              {c.label}
            </option>
          ))}
        </Select>
        {pickTime ? (
          <ZonedDateTimeField
            label="or until"
            name="until"
            id={`snooze-until-${item.id}`}
            value=""
            tz=""
            hint="Leave empty to use the choice on the left."
          />
        ) : null}
        <Button
          type="submit"
          name="intent"
          value="snooze"
          variant="outline"
          size="sm"
          aria-label={of ? `Snooze ${of}` : undefined}
          data-queue-action="snooze"
        >
          Snooze
        </Button>
      </Form>
    </div>
  );
}

/** One button's form (close, reopen): the row's id and way back, the intent, and `data-queue-action` for the shortcuts. */
function StateButton({
  intent,
  label,
  fields,
  of,
}: {
  intent: "close" | "reopen";
  label: string;
  fields: { id: number; back: string };
  of?: string;
}) {
  return (
    <Form method="post" action={QUEUE_STATE_ACTION}>
      <HiddenFields fields={fields} />
      <Button
        type="submit"
        name="intent"
        value={intent}
        variant="outline"
        size="sm"
        aria-label={of ? `${label} ${of}` : undefined}
        data-queue-action={intent}
      >
        {label}
      </Button>
    </Form>
  );
}
