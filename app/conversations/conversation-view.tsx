import { postedValue, type FormFailure } from "~/components/form-failure";
import { TemplatePicker, type PickableTemplate } from "~/templates/template-picker";
import { Form, useFetcher, useNavigation } from "@remix-run/react";
import { useState, type ReactNode } from "react";
import { Alert, Badge, Button, Card, Field, TextLink, messageStatusTone, useResetOnSuccess } from "~/components/ui";
import { LocalTime } from "~/components/local-time";
import { useHydrated } from "~/lib/use-hydrated";
import { smsSegments } from "~/messaging/segments";
import type { ThreadMessage } from "./get-conversation.server";
import { hasReplaceableChars, toPlainGsm } from "./gsm-replace";
import type { ThreadNote } from "./list-thread-notes.server";
import type { Mentionable } from "./mentions";
import { NoteForm, NoteItem, ScheduledLine } from "./conversation-notes";
import { SendLaterFields } from "./send-later-fields";

/**
 * The "Conversation" card of a contact's page and of a number's thread: the thread, then the reply box (`#reply`,
 * the anchor the thread's links jump to), then the internal-note box. `thread` is getThread's page (messages and
 * notes); `templates` is pickTemplate's answer; `users` the teammates a note can @mention; `contactZone` the contact's
 * time zone (send later shows their time).
 */
export function ConversationCard({
  thread,
  nonce,
  optedOut,
  actionData,
  templates,
  users = [],
  contactZone = null,
  className,
  queue,
}: {
  thread: { messages: ThreadMessage[]; notes?: ThreadNote[]; earlierCursor: string | number | null };
  nonce: string;
  optedOut: string | null;
  actionData: ReplyActionData;
  templates: { templates: PickableTemplate[]; picked: PickableTemplate | null };
  users?: Mentionable[];
  contactZone?: string | null;
  className?: string;
  /** The inbox queue's close / snooze / reopen forms (decision 046), above the thread. */
  queue?: ReactNode;
}) {
  const noteFailure = actionData?.ok === false && actionData.intent === "note" ? actionData : null;
  return (
    <Card title="Conversation" className={className}>
      <div className="space-y-4">
        {queue}
        <Thread
          messages={thread.messages}
          notes={thread.notes}
          contactZone={contactZone}
          earlierHref={thread.earlierCursor ? `?before=${thread.earlierCursor}` : null}
        />
        <div id="reply">
          <ReplyBox
            nonce={nonce}
            optedOut={optedOut}
            actionData={noteFailure ? undefined : actionData}
            templates={templates.templates}
            picked={templates.picked}
            contactZone={contactZone}
          />
        </div>
        <div id="note" className="border-t border-border pt-4">
          <NoteForm users={users} failure={noteFailure} />
        </div>
      </div>
    </Card>
  );
}

/**
 * The thread, oldest → newest, messages and internal notes by time, with an "Earlier messages" link to the previous
 * page (a plain GET link). A waiting send says when it goes, with Cancel.
 */
export function Thread({
  messages,
  notes = [],
  contactZone = null,
  earlierHref,
}: {
  messages: ThreadMessage[];
  notes?: ThreadNote[];
  contactZone?: string | null;
  earlierHref: string | null;
}) {
  const items = [
    ...messages.map((m) => ({ at: m.createdAt, m, n: null })),
    ...notes.map((n) => ({ at: n.createdAt, m: null, n })),
  ].sort((a, b) => (a.at < b.at ? -1 : a.at > b.at ? 1 : 0));
  return (
    <section aria-label="Conversation" className="space-y-3" data-testid="thread" id="thread">
      {earlierHref ? (
        <p className="text-center text-sm">
          <TextLink to={earlierHref}>Earlier messages</TextLink>
        </p>
      ) : null}
      {messages.length === 0 ? <p className="text-sm text-fg-muted">No messages yet.</p> : null}
      <ol className="space-y-2">
        {items.map(({ m, n }) =>
          n ? <NoteItem key={`n${n.id}`} note={n} /> : <MessageItem key={m!.id} m={m!} contactZone={contactZone} />,
        )}
      </ol>
    </section>
  );
}

function MessageItem({ m, contactZone }: { m: ThreadMessage; contactZone: string | null }) {
  return (
    <li
      key={m.id}
      className={m.direction === "inbound" ? "flex justify-start" : "flex justify-end"}
      data-testid="thread-message"
      data-direction={m.direction}
    >
      <div
        className={`max-w-[80%] rounded-lg border border-border p-3 ${m.direction === "inbound" ? "bg-surface" : "bg-primary-soft"}`}
      >
        <div className="mb-1 flex flex-wrap items-center gap-2 text-xs text-fg-muted">
          <span>{m.direction === "inbound" ? "Received" : "Sent"}</span>
          <span>{m.channel.toUpperCase()}</span>
          <Badge tone={messageStatusTone(m.status)}>{m.status}</Badge>
          <LocalTime iso={m.createdAt} />
        </div>
        {m.subject ? <p className="text-sm font-medium">{m.subject}</p> : null}
        {m.content ? <p className="whitespace-pre-wrap break-words text-sm">{m.content}</p> : null}
        {m.media.length ? <MessageMedia media={m.media} /> : null}
        {m.errorMessage ? <p className="mt-1 text-xs text-danger-text">{m.errorMessage}</p> : null}
        {m.scheduledFor || m.cancellable ? (
          <ScheduledLine
            id={m.id}
            at={m.scheduledFor ?? m.createdAt}
            cancellable={m.cancellable}
            contactZone={contactZone}
          />
        ) : null}
      </div>
    </li>
  );
}

export type ReplyActionData = FormFailure | { ok: true; replaced: string; suggested?: boolean } | undefined;

/**
 * The reply box: a live character/segment count (JS), a note when the text will go as UCS-2 with "Replace them"
 * (in place with JS; without JS a submit that re-renders the form with the replaced text), refused up front
 * when the recipient opted out. "Suggest a reply" fills the box with an AI suggestion (a fetcher with JS; without JS
 * the POST re-renders the box with it) — the rep edits and sends it; "Send later" schedules it.
 */
export function ReplyBox({
  nonce,
  optedOut,
  actionData,
  templates = [],
  picked = null,
  contactZone = null,
}: {
  nonce: string;
  optedOut: string | null;
  actionData: ReplyActionData;
  /** SMS templates offered above the box; `picked` (`?template=<id>`, the no-JS path) pre-fills it. */
  templates?: PickableTemplate[];
  picked?: PickableTemplate | null;
  contactZone?: string | null;
}) {
  const navigation = useNavigation();
  const suggest = useFetcher<ReplyActionData>();
  const initial = picked?.type === "sms" ? picked.content : "";
  const serverText =
    actionData?.ok === true
      ? actionData.replaced
      : actionData?.ok === false
        ? postedValue(actionData, "message", initial)
        : initial;
  const [text, setText] = useState(serverText);
  const [shown, setShown] = useState(serverText);
  if (serverText !== shown) {
    // A new server reply (replaced text or a refusal) resets the box to what the server rendered.
    setShown(serverText);
    setText(serverText);
  }
  // A sent reply empties the box; a refusal or "Replace them" (both answer with data) keeps the text.
  const resetting = useResetOnSuccess(actionData !== undefined, () => setText(""));
  const hydrated = useHydrated();
  const [applied, setApplied] = useState<unknown>(undefined);
  if (suggest.data !== undefined && suggest.data !== applied) {
    // A suggestion fills the box (with JS): the rep reads, edits and sends it; nothing is sent by itself.
    setApplied(suggest.data);
    if (suggest.data.ok === true) setText(suggest.data.replaced);
  }
  const seg = smsSegments(text);
  const pending = navigation.state === "submitting";
  const failedIntent = actionData?.ok === false ? actionData.intent : undefined;
  const suggestFailure = suggest.data?.ok === false ? suggest.data.message : null;
  if (optedOut) {
    return (
      <Alert tone="warning" data-testid="reply-opted-out">
        {optedOut}
      </Alert>
    );
  }
  return (
    <div className="space-y-2">
      {templates.length ? (
        <TemplatePicker
          templates={templates}
          type="sms"
          selectedId={picked?.id}
          onPick={(t) => setText(t.content)}
          label="Reply with a template"
        />
      ) : null}
      {/* multipart: the box may carry a picture (MMS, decision 076), with or without JS. */}
      <Form method="post" encType="multipart/form-data" className="space-y-2" data-testid="reply-form" {...resetting}>
        <input type="hidden" name="nonce" value={nonce} />
        {actionData?.ok === false || suggestFailure ? (
          <Alert tone="danger" data-testid="reply-error">
            {actionData?.ok === false ? actionData.message : suggestFailure}
          </Alert>
        ) : null}
        {actionData?.ok === true && actionData.suggested ? (
          <p className="text-xs text-fg-muted" data-testid="suggested-note">
            Suggested reply: read and edit it, then send. Nothing is sent until you press Send.
          </p>
        ) : null}
        <label htmlFor="reply-message" className="block text-sm font-medium">
          Reply
        </label>
        <textarea
          id="reply-message"
          name="message"
          required
          maxLength={1600}
          rows={3}
          value={text}
          onChange={(e) => setText(e.target.value)}
          className="w-full rounded-md border border-border bg-surface p-2 text-sm"
        />
        {hydrated ? (
          <p className="text-xs text-fg-muted" aria-live="polite" data-testid="reply-count">
            {seg.units} characters · {seg.segments} segment
            {seg.segments === 1 ? "" : "s"} ({seg.encoding})
          </p>
        ) : null}
        <Field
          label="Picture (optional)"
          name="picture"
          type="file"
          accept="image/jpeg,image/png,image/gif"
          hint="Sent with the text as one MMS (JPEG, PNG or GIF, up to 5 MB): billed at the MMS rate, not per segment."
          errors={actionData?.ok === false && actionData.field === "picture" ? [actionData.message] : undefined}
        />
        {/* Without JS nobody can tell while typing: the note and its button are always there until hydration. */}
        {hasReplaceableChars(text) || !hydrated ? (
          <Alert tone="warning" data-testid="ucs2-note">
            {hydrated
              ? "Curly quotes, dashes or similar characters make this text go as UCS-2"
              : "Curly quotes, em dashes and similar characters make a text go as UCS-2"}
            : a segment holds 70 characters instead of 160.{" "}
            <Button
              type="submit"
              name="intent"
              value="replace"
              variant="secondary"
              size="sm"
              formNoValidate
              onClick={(e) => {
                // With JS: replace in place, no round trip.
                e.preventDefault();
                setText(toPlainGsm(text));
              }}
            >
              Replace them
            </Button>
          </Alert>
        ) : null}
        <div className="flex flex-wrap gap-2">
          <Button type="submit" name="intent" value="reply" disabled={pending}>
            {pending ? "Sending..." : "Send reply"}
          </Button>
          <Button
            type="submit"
            name="intent"
            value="suggest"
            variant="outline"
            formNoValidate
            disabled={suggest.state !== "idle"}
            onClick={(e) => {
              // With JS: a fetcher asks for the suggestion and fills the box; the page stays as it is.
              e.preventDefault();
              suggest.submit({ intent: "suggest" }, { method: "post" });
            }}
          >
            {suggest.state !== "idle" ? "Suggesting..." : "Suggest a reply"}
          </Button>
        </div>
        <SendLaterFields
          contactZone={contactZone}
          disabled={pending}
          failure={
            failedIntent === "later" && actionData?.ok === false
              ? {
                  sendAt: postedValue(actionData, "sendAt", ""),
                  tz: postedValue(actionData, "tz", ""),
                  error: actionData.field === "sendAt" ? actionData.message : null,
                }
              : null
          }
        />
      </Form>
    </div>
  );
}

/**
 * An inbound MMS's files (decision 057): a stored picture inline (a link to the full size), a PDF as a link, one
 * still on its way or not kept as a line saying so. Served by /media/:id to whoever sees this thread.
 */
function MessageMedia({ media }: { media: ThreadMessage["media"] }) {
  return (
    <ul className="mt-2 space-y-2" data-testid="thread-media">
      {media.map((f) => (
        <li key={f.id} className="text-sm">
          {f.status === "stored" && f.contentType.startsWith("image/") ? (
            <a href={`/media/${f.id}`} target="_blank" rel="noreferrer">
              <img
                src={`/media/${f.id}`}
                alt="Sent by the contact"
                loading="lazy"
                className="max-h-64 max-w-full rounded-md border border-border"
              />
            </a>
          ) : f.status === "stored" ? (
            <TextLink href={`/media/${f.id}`} target="_blank" rel="noreferrer">
              {f.contentType === "application/pdf" ? "PDF from the contact" : "File from the contact"}
            </TextLink>
          ) : f.status === "pending" ? (
            <span className="text-fg-muted">A picture is on its way…</span>
          ) : (
            <span className="text-fg-muted">{f.error ?? "A file that could not be kept"}</span>
          )}
        </li>
      ))}
    </ul>
  );
}
