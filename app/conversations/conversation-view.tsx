import { postedValue, type FormFailure } from "~/components/form-failure";
import { TemplatePicker, type PickableTemplate } from "~/templates/template-picker";
import { Form, useNavigation } from "@remix-run/react";
import { useState } from "react";
import { Alert, Badge, Button, Card, TextLink, messageStatusTone, useResetOnSuccess } from "~/components/ui";
import { LocalTime } from "~/components/local-time";
import { useHydrated } from "~/lib/use-hydrated";
import { smsSegments } from "~/messaging/segments";
import type { ThreadMessage } from "./get-conversation.server";
import { hasReplaceableChars, toPlainGsm } from "./gsm-replace";

/**
 * The "Conversation" card of a contact's page and of a number's thread: the thread, then the reply box (`#reply`,
 * the anchor the thread's links jump to). `thread` is getThread's page; `templates` is pickTemplate's answer.
 */
export function ConversationCard({
  thread,
  nonce,
  optedOut,
  actionData,
  templates,
  className,
}: {
  thread: { messages: ThreadMessage[]; earlierCursor: string | number | null };
  nonce: string;
  optedOut: string | null;
  actionData: ReplyActionData;
  templates: { templates: PickableTemplate[]; picked: PickableTemplate | null };
  className?: string;
}) {
  return (
    <Card title="Conversation" className={className}>
      <div className="space-y-4">
        <Thread
          messages={thread.messages}
          earlierHref={thread.earlierCursor ? `?before=${thread.earlierCursor}` : null}
        />
        <div id="reply">
          <ReplyBox
            nonce={nonce}
            optedOut={optedOut}
            actionData={actionData}
            templates={templates.templates}
            picked={templates.picked}
          />
        </div>
      </div>
    </Card>
  );
}

/** The thread, oldest → newest, with an "Earlier messages" link to the previous page (a plain GET link). */
export function Thread({ messages, earlierHref }: { messages: ThreadMessage[]; earlierHref: string | null }) {
  return (
    <section aria-label="Conversation" className="space-y-3" data-testid="thread">
      {earlierHref ? (
        <p className="text-center text-sm">
          <TextLink to={earlierHref}>Earlier messages</TextLink>
        </p>
      ) : null}
      {messages.length === 0 ? <p className="text-sm text-fg-muted">No messages yet.</p> : null}
      <ol className="space-y-2">
        {messages.map((m) => (
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
              <p className="whitespace-pre-wrap break-words text-sm">{m.content}</p>
              {m.errorMessage ? <p className="mt-1 text-xs text-danger-text">{m.errorMessage}</p> : null}
            </div>
          </li>
        ))}
      </ol>
    </section>
  );
}

export type ReplyActionData = FormFailure | { ok: true; replaced: string } | undefined;

/**
 * The reply box: a live character/segment count (JS), a note when the text will go as UCS-2 with "Replace them"
 * (in place with JS; without JS a submit that re-renders the form with the replaced text), refused up front
 * when the recipient opted out.
 */
export function ReplyBox({
  nonce,
  optedOut,
  actionData,
  templates = [],
  picked = null,
}: {
  nonce: string;
  optedOut: string | null;
  actionData: ReplyActionData;
  /** SMS templates offered above the box; `picked` (`?template=<id>`, the no-JS path) pre-fills it. */
  templates?: PickableTemplate[];
  picked?: PickableTemplate | null;
}) {
  const navigation = useNavigation();
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
  const seg = smsSegments(text);
  const pending = navigation.state === "submitting";
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
      <Form method="post" className="space-y-2" data-testid="reply-form" {...resetting}>
        <input type="hidden" name="nonce" value={nonce} />
        {actionData?.ok === false ? (
          <Alert tone="danger" data-testid="reply-error">
            {actionData.message}
          </Alert>
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
        <Button type="submit" name="intent" value="reply" disabled={pending}>
          {pending ? "Sending..." : "Send reply"}
        </Button>
      </Form>
    </div>
  );
}
