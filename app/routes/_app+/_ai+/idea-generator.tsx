import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { redirect } from "@remix-run/cloudflare";
import { Form, useActionData, useLoaderData, useNavigation, useRevalidator } from "@remix-run/react";
import { Bot, Copy, Lightbulb, Send, Trash2, User } from "lucide-react";
import { useEffect, useRef, useState, type FormEvent, type KeyboardEvent } from "react";
import { useToast } from "~/components/toaster";
import { clearChat, listChatThread, sendChatMessage } from "~/idea-generator/idea-chat.server";
import { ideaChatForm, MAX_CHAT_CONTEXT } from "~/idea-generator/idea-chat-form";
import { requireUser } from "~/http/guard.server";
import { Alert, Button, Card, EmptyState, HiddenFields, Input, PageHeader, TextLink, Textarea } from "~/components/ui";
import { z } from "zod";
import { formAction } from "~/http/form-action.server";

const MESSAGE_TIME = new Intl.DateTimeFormat("en-US", { hour: "numeric", minute: "2-digit", timeZone: "UTC" });

export const meta: MetaFunction = () => [{ title: "Idea Generator — Helio" }];

const QUICK_PROMPTS = [
  "Write an introduction SMS for new solar leads",
  "Create a 4-step follow-up campaign for leads who went quiet",
  "How do I handle the objection that solar is too expensive?",
  "Give me 5 email subject lines that get opened",
  "Ideas for a neighborhood referral campaign",
  "How can I turn replies into booked consultations?",
] as const;

const TIPS = [
  "Add context (audience, season, offer) for answers that fit your campaign.",
  "Ask for a specific format: an SMS under 160 characters, a subject line, a 3-step sequence.",
  "Click a suggestion to keep the conversation going.",
  "Drafts never promise savings figures; personalize with {{firstName}} and other platform variables.",
];

/** Where a reply can be copied to in one click: the Testing screen's Create Template card reads `?draft=`. */
const MAX_PREFILL = 1500;
const templateLink = (text: string) => `/testing?draft=${encodeURIComponent(text.slice(0, MAX_PREFILL))}`;

export async function loader(args: LoaderFunctionArgs) {
  const user = await requireUser(args);
  const context = new URL(args.request.url).searchParams.get("context") ?? "";
  return { thread: await listChatThread(args.context.db, user.id), context: context.slice(0, MAX_CHAT_CONTEXT) };
}

/** `send` asks the assistant (an empty message is ignored), `clear` empties the thread; both redirect back (PRG). */
// "send" (the message box) or "clear" (the thread); the context box travels with both, so it survives either.
const chatForm = ideaChatForm.extend({ intent: z.string().optional() });

export async function action(args: ActionFunctionArgs) {
  return formAction(args, { schema: chatForm, title: "Error generating response" }, async (input, { user }) => {
    const back = input.context.trim()
      ? `/idea-generator?context=${encodeURIComponent(input.context)}`
      : "/idea-generator";
    if (input.intent === "clear") {
      await clearChat(args.context.db, user.id);
      return redirect(back);
    }
    await sendChatMessage(
      { ...args.context.ai(), db: args.context.db },
      user.id,
      { message: input.message, context: input.context },
      args.context.clock(),
    );
    return redirect(`${back}#latest`);
  });
}

export default function IdeaGenerator() {
  const { thread, context } = useLoaderData<typeof loader>();
  const failure = useActionData<typeof action>();
  const navigation = useNavigation();
  const sending = navigation.state !== "idle" && navigation.formData?.get("intent") === "send";
  const pendingMessage = sending ? String(navigation.formData?.get("message") ?? "").trim() : "";
  const revalidator = useRevalidator();
  const toast = useToast();
  // With JS the answer streams in (POST /idea-generator/stream); `done` waits for the reloaded thread to show it.
  const [live, setLive] = useState<{ message: string; text: string; done: boolean } | null>(null);
  // Finished and the thread reloaded (the saved answer is in it): the live bubble goes.
  const shownLive = live && !(live.done && revalidator.state === "idle") ? live : null;
  const streamSubmit = (e: FormEvent<HTMLFormElement>) => {
    const data = new FormData(e.currentTarget);
    const message = String(data.get("message") ?? "").trim();
    e.preventDefault();
    if (!message || shownLive) return;
    setLive({ message, text: "", done: false });
    if (inputRef.current && e.currentTarget === formRef.current) inputRef.current.value = "";
    void (async () => {
      try {
        const res = await fetch("/idea-generator/stream", {
          method: "POST",
          body: data,
          headers: { Accept: "text/plain" },
        });
        if (res.status === 204) return setLive(null);
        if (!res.ok || !res.body) {
          const body = (await res.json().catch(() => null)) as { message?: string } | null;
          throw new Error(body?.message ?? `HTTP ${res.status}`);
        }
        const reader = res.body.getReader();
        const decoder = new TextDecoder();
        for (;;) {
          const { value, done } = await reader.read();
          if (done) break;
          const text = decoder.decode(value, { stream: true });
          setLive((l) => (l ? { ...l, text: l.text + text } : l));
        }
        setLive((l) => (l ? { ...l, done: true } : l));
        revalidator.revalidate();
      } catch (err) {
        setLive(null);
        if (inputRef.current && !inputRef.current.value) inputRef.current.value = message;
        toast({
          title: "Error generating response",
          description: err instanceof Error ? err.message : "Please try again.",
          variant: "destructive",
        });
      }
    })();
  };
  const formRef = useRef<HTMLFormElement>(null);
  const inputRef = useRef<HTMLTextAreaElement>(null);
  const contextRef = useRef<HTMLInputElement>(null);
  const endRef = useRef<HTMLDivElement>(null);

  useEffect(() => {
    if (navigation.state === "idle" && inputRef.current) inputRef.current.value = "";
    endRef.current?.scrollIntoView?.({ block: "end" });
  }, [navigation.state, thread.length]);

  // With JS: Enter sends, Shift+Enter makes a new line; an empty input is ignored.
  const onKeyDown = (e: KeyboardEvent<HTMLTextAreaElement>) => {
    if (e.key !== "Enter" || e.shiftKey || e.nativeEvent.isComposing) return;
    e.preventDefault();
    if (e.currentTarget.value.trim() && !sending) formRef.current?.requestSubmit();
  };
  const send: PromptSend = { context, disabled: sending, onSubmit: streamSubmit };

  return (
    <div className="space-y-6">
      <PageHeader
        title="Idea Generator"
        description={<p>Chat with the AI assistant for sales ideas and message content.</p>}
        actions={
          <Form method="post">
            <HiddenFields fields={{ intent: "clear", context }} />
            <Button type="submit" variant="outline" icon={Trash2} disabled={thread.length === 0}>
              Clear Chat
            </Button>
          </Form>
        }
      />
      <div className="grid gap-6 lg:grid-cols-[1fr_18rem]">
        <Card title="Chat" description="Ask for campaign ideas, message copy, subject lines or objection handling.">
          <div className="space-y-4" data-testid="chat-thread" aria-live="polite">
            {thread.length === 0 && !pendingMessage ? (
              <EmptyState
                icon={Bot}
                title="No messages yet"
                description="Ask a question or pick a quick prompt to get started."
              />
            ) : null}
            {thread.map((m, i) => (
              <div
                key={m.id}
                id={i === thread.length - 1 ? "latest" : undefined}
                className={m.role === "user" ? "flex justify-end" : "flex justify-start"}
              >
                <div
                  data-testid={m.role === "user" ? "chat-user-message" : "chat-assistant-message"}
                  className={
                    m.role === "user"
                      ? "max-w-[85%] rounded-lg bg-primary px-4 py-2 text-primary-fg"
                      : "max-w-[85%] space-y-3 rounded-lg border border-border bg-muted px-4 py-3 text-fg"
                  }
                >
                  <div className="flex items-center gap-2 text-xs opacity-80">
                    {m.role === "user" ? (
                      <User className="size-3" aria-hidden />
                    ) : (
                      <Bot className="size-3" aria-hidden />
                    )}
                    <span>{m.role === "user" ? "You" : "Assistant"}</span>
                    <time dateTime={new Date(m.createdAt).toISOString()}>
                      {MESSAGE_TIME.format(new Date(m.createdAt))} UTC
                    </time>
                  </div>
                  <p className="whitespace-pre-wrap text-sm">{m.content}</p>
                  {m.role === "assistant" ? (
                    <>
                      {m.suggestions.length > 0 ? (
                        <PromptButtons
                          prompts={m.suggestions.slice(0, 3)}
                          send={send}
                          className="flex flex-wrap gap-2"
                          aria-label="Suggestions"
                          data-testid="chat-suggestions"
                        />
                      ) : null}
                      <TextLink to={templateLink(m.content)} className="inline-flex items-center gap-1 text-xs">
                        <Copy className="size-3" aria-hidden /> Use as template
                      </TextLink>
                    </>
                  ) : null}
                </div>
              </div>
            ))}
            {pendingMessage ? (
              <>
                <div className="flex justify-end">
                  <p className="max-w-[85%] whitespace-pre-wrap rounded-lg bg-primary px-4 py-2 text-sm text-primary-fg">
                    {pendingMessage}
                  </p>
                </div>
                <p className="text-sm text-fg-muted" role="status">
                  Generating...
                </p>
              </>
            ) : null}
            {shownLive ? (
              <>
                <div className="flex justify-end">
                  <p className="max-w-[85%] whitespace-pre-wrap rounded-lg bg-primary px-4 py-2 text-sm text-primary-fg">
                    {shownLive.message}
                  </p>
                </div>
                <div className="flex justify-start">
                  <div
                    className="max-w-[85%] space-y-2 rounded-lg border border-border bg-muted px-4 py-3 text-fg"
                    data-testid="chat-streaming"
                  >
                    <div className="flex items-center gap-2 text-xs opacity-80">
                      <Bot className="size-3" aria-hidden /> <span>Assistant</span>
                    </div>
                    <p className="whitespace-pre-wrap text-sm">{shownLive.text || "Generating..."}</p>
                  </div>
                </div>
              </>
            ) : null}
            <div ref={endRef} />
          </div>
          {failure && !failure.ok ? (
            <Alert tone="danger" data-testid="chat-error">
              <strong>{failure.title ?? "Error generating response"}</strong>: {failure.message}
            </Alert>
          ) : null}
          <Form method="post" ref={formRef} className="mt-4 space-y-3" onSubmit={streamSubmit}>
            <input type="hidden" name="intent" value="send" />
            <div className="space-y-1 text-sm">
              <label htmlFor="chat-context" className="text-fg-muted">
                Context (optional)
              </label>
              <Input
                id="chat-context"
                ref={contextRef}
                name="context"
                defaultValue={context}
                maxLength={2000}
                placeholder="e.g. homeowners in Phoenix, summer campaign, free assessment offer"
              />
            </div>
            <div className="space-y-1 text-sm">
              <label htmlFor="chat-input" className="sr-only">
                Message
              </label>
              <Textarea
                id="chat-input"
                ref={inputRef}
                name="message"
                rows={3}
                maxLength={2000}
                placeholder="Ask for ideas or message content... (Enter to send, Shift+Enter for a new line)"
                onKeyDown={onKeyDown}
                data-testid="chat-input"
              />
            </div>
            <div className="flex justify-end">
              <Button type="submit" icon={Send} disabled={sending}>
                {sending ? "Generating..." : "Send"}
              </Button>
            </div>
          </Form>
        </Card>
        <div className="space-y-6">
          <Card title="Quick Prompts">
            <PromptButtons prompts={QUICK_PROMPTS} send={send} quick className="space-y-2" />
          </Card>
          <Card title="Tips">
            <ul className="space-y-2 text-sm text-fg-muted">
              {TIPS.map((t) => (
                <li key={t} className="flex gap-2">
                  <Lightbulb className="mt-0.5 size-4 shrink-0 text-warning-text" aria-hidden />
                  <span>{t}</span>
                </li>
              ))}
            </ul>
          </Card>
        </div>
      </div>
    </div>
  );
}

type PromptSend = { context: string; disabled: boolean; onSubmit: (e: FormEvent<HTMLFormElement>) => void };

/**
 * Ready-made messages sent in one click (the suggestions under a reply, the quick prompts) with the context box's
 * text: each a form of its own, so it posts without JS and streams with it. A quick prompt is a full-width ghost row
 * whose long text wraps; a suggestion is a small chip.
 */
function PromptButtons({
  prompts,
  send,
  quick = false,
  className,
  ...rest
}: {
  prompts: readonly string[];
  send: PromptSend;
  quick?: boolean;
  className: string;
  "aria-label"?: string;
  "data-testid"?: string;
}) {
  return (
    <ul className={className} {...rest}>
      {prompts.map((p) => (
        <li key={p}>
          <Form method="post" onSubmit={send.onSubmit}>
            <HiddenFields fields={{ intent: "send", message: p, context: send.context }} />
            <Button
              type="submit"
              size="sm"
              variant={quick ? "ghost" : "secondary"}
              wrap={quick}
              className={quick ? "h-auto w-full justify-start py-2" : undefined}
              disabled={send.disabled}
              data-testid={quick ? "quick-prompt" : "chat-suggestion"}
            >
              {p}
            </Button>
          </Form>
        </li>
      ))}
    </ul>
  );
}
