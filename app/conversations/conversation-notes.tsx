import { Form, useNavigation } from "@remix-run/react";
import { useRef, useState } from "react";
import { Alert, Button, PostButton, useResetOnSuccess } from "~/components/ui";
import { LocalTime } from "~/components/local-time";
import { postedValue, type FormFailure } from "~/components/form-failure";
import { useHydrated } from "~/lib/use-hydrated";
import type { ThreadNote } from "./list-thread-notes.server";
import { mentionQuery, mentionText, type Mentionable } from "./mentions";

const NOTE_MAX = 1000;

/** An internal note in the thread: full width, dashed, labelled — never mistaken for a text the contact got. */
export function NoteItem({ note }: { note: ThreadNote }) {
  return (
    <li data-testid="thread-note" data-kind={note.kind} className="flex justify-center">
      <div className="w-full rounded-lg border border-dashed border-warning-border bg-warning-soft p-3">
        <div className="mb-1 flex flex-wrap items-center gap-2 text-xs text-fg-muted">
          <span className="font-medium">
            {note.kind === "handoff" ? "Hand-off note — not sent" : "Internal note — not sent"}
          </span>
          {note.author ? <span>{note.author}</span> : null}
          <LocalTime iso={note.createdAt} />
        </div>
        {note.kind === "handoff" ? (
          <p className="text-xs text-fg-muted">{note.handoffTo ? `Owner set to ${note.handoffTo}` : "Owner cleared"}</p>
        ) : null}
        {/* Text only: React prints markup as written. */}
        <p className="whitespace-pre-wrap break-words text-sm">{note.body}</p>
      </div>
    </li>
  );
}

/** A waiting send's line in its bubble: when it goes (the rep's zone; the contact's beside it) and Cancel. */
export function ScheduledLine({
  id,
  at,
  cancellable,
  contactZone,
}: {
  id: number;
  at: string;
  cancellable: boolean;
  contactZone: string | null;
}) {
  return (
    <div className="mt-2 flex flex-wrap items-center gap-2 text-xs" data-testid="scheduled">
      <span>
        Scheduled for <LocalTime iso={at} />
        {contactZone ? <> ({zonedTime(at, contactZone)} their time)</> : null}
      </span>
      {cancellable ? (
        <PostButton intent="cancel" fields={{ messageId: id }} of="scheduled text">
          Cancel
        </PostButton>
      ) : null}
    </div>
  );
}

/** "Dec 1, 09:30 CST": an instant on a zone's wall clock (a bad zone: UTC). */
export function zonedTime(iso: string, zone: string) {
  const opts: Intl.DateTimeFormatOptions = {
    month: "short",
    day: "numeric",
    hour: "2-digit",
    minute: "2-digit",
    hourCycle: "h23",
    timeZoneName: "short",
  };
  try {
    return new Intl.DateTimeFormat("en-US", { ...opts, timeZone: zone }).format(new Date(iso));
  } catch {
    return new Intl.DateTimeFormat("en-US", { ...opts, timeZone: "UTC" }).format(new Date(iso));
  }
}

/**
 * The internal-note box (decision 047): posts intent=note. `@` + a teammate's name or email mentions them (the
 * server resolves it); after hydration typing `@` opens a picker of the active users, which inserts the name.
 */
export function NoteForm({ users, failure }: { users: Mentionable[]; failure: FormFailure | null }) {
  const navigation = useNavigation();
  const hydrated = useHydrated();
  const [text, setText] = useState(failure ? postedValue(failure, "note", "") : "");
  const [query, setQuery] = useState<{ start: number; query: string } | null>(null);
  const box = useRef<HTMLTextAreaElement>(null);
  const resetting = useResetOnSuccess(Boolean(failure), () => setText(""));
  const pending = navigation.state === "submitting" && navigation.formData?.get("intent") === "note";
  const matches = query
    ? users.filter((u) => `${u.name} ${u.email}`.toLowerCase().includes(query.query.trim().toLowerCase())).slice(0, 6)
    : [];
  const pick = (u: Mentionable) => {
    if (!query) return;
    const caret = box.current?.selectionStart ?? text.length;
    const next = `${text.slice(0, query.start)}@${mentionText(u)} ${text.slice(caret)}`;
    setText(next);
    setQuery(null);
    box.current?.focus();
  };
  return (
    <Form method="post" className="space-y-2" data-testid="note-form" {...resetting}>
      {failure ? (
        <Alert tone="danger" data-testid="note-error">
          {failure.message}
        </Alert>
      ) : null}
      <label htmlFor="note-body" className="block text-sm font-medium">
        Internal note
      </label>
      <p className="text-xs text-fg-muted" id="note-hint">
        Only your team sees it; never sent to the contact. Mention a teammate with @ and their name or email.
      </p>
      <div className="relative">
        <textarea
          ref={box}
          id="note-body"
          name="note"
          required
          maxLength={NOTE_MAX}
          rows={2}
          value={text}
          aria-describedby="note-hint"
          onChange={(e) => {
            setText(e.target.value);
            setQuery(hydrated ? mentionQuery(e.target.value, e.target.selectionStart) : null);
          }}
          onKeyDown={(e) => {
            if (e.key === "Escape") setQuery(null);
          }}
          className="w-full rounded-md border border-dashed border-border bg-surface p-2 text-sm"
        />
        {hydrated && matches.length ? (
          <ul
            role="listbox"
            aria-label="Mention a teammate"
            data-testid="mention-picker"
            className="absolute z-10 mt-1 w-full max-w-xs rounded-md border border-border bg-surface shadow"
          >
            {matches.map((u) => (
              <li key={u.id} role="option" aria-selected={false}>
                <button
                  type="button"
                  className="w-full px-3 py-2 text-left text-sm hover:bg-muted"
                  onMouseDown={(e) => e.preventDefault()}
                  onClick={() => pick(u)}
                >
                  {u.name} <span className="text-fg-muted">{u.email}</span>
                </button>
              </li>
            ))}
          </ul>
        ) : null}
      </div>
      <Button type="submit" name="intent" value="note" variant="secondary" disabled={pending}>
        {pending ? "Adding..." : "Add note"}
      </Button>
    </Form>
  );
}
