import { messagingConfig } from "~/messaging/messaging-config.server";
import {
  json,
  redirect,
  type ActionFunctionArgs,
  type LoaderFunctionArgs,
  type MetaFunction,
} from "@remix-run/cloudflare";
import { Form, useActionData, useLoaderData, useLocation, useNavigation } from "@remix-run/react";
import { BookOpen, Download, Send } from "lucide-react";
import { requireUser } from "~/http/guard.server";
import { readCapCounters } from "~/caps/read-cap-counters.server";
import { useFailureToast } from "~/components/toaster";
import { Alert, Badge, Button, Card, Field, HiddenFields, PageHeader, Tabs, useResetOnSuccess } from "~/components/ui";
import { z } from "zod";
import { AppError } from "~/lib/app-error";
import { ZonedDateTimeField } from "~/campaigns/schedule-fields";
import { failureToast, fieldErrorsOf, isFormFailure, postedValue, type FormFailure } from "~/components/form-failure";
import { ContactPicker } from "~/contacts/contact-picker";
import { formAction } from "~/http/form-action.server";
import { intentError } from "~/http/form-schema";
import { sendBroadcast } from "~/messaging/send-broadcast.server";
import { broadcastFields, broadcastInput, checkedRecipients } from "~/http/broadcast-form.server";
import {
  manualEmailSchema,
  manualSmsSchema,
  sendManualEmailTest,
  sendManualSmsTest,
} from "~/messaging/create-test-send.server";
import { checkBroadcast, type BroadcastCheck } from "~/messaging/check-broadcast.server";
import { PreSendSummary } from "~/messaging/presend-summary";
import { unregisteredSenderWarnings } from "~/deliverability/ten-dlc-readiness.server";
import { loadTestingPlayground } from "~/playground/load-testing-playground.server";
import { PLAYGROUND_TABS, type PlaygroundTab } from "~/playground/playground-tabs";
import { variablesByCategory } from "~/contacts/variables";
import { parseInput } from "~/http/api.server";
import { createTemplate } from "~/templates/create-template.server";
import { TemplatePicker } from "~/templates/template-picker";
import { createTemplateSchema, TEMPLATE_CREATE_ERROR } from "~/templates/template-schema";
import { redirectWithToast } from "~/http/toast.server";
import { requirePublicUrl } from "~/messaging/check-public-url.server";
import { viewerOf } from "~/contacts/contact-scope.server";
import { formatCount } from "~/lib/format-count";

const CHANNEL_OPTIONS = [
  { value: "sms", label: "SMS" },
  { value: "email", label: "Email" },
];

export const meta: MetaFunction = () => [{ title: "Message Testing Playground — Helio" }];

export async function loader(args: LoaderFunctionArgs) {
  const user = await requireUser(args);
  const now = args.context.clock();
  const [playground, caps] = await Promise.all([
    loadTestingPlayground(args.context.db, new URL(args.request.url), now, viewerOf(user)),
    readCapCounters(args.context.db, now, user.id),
  ]);
  return { ...playground, testSends: caps.testSends! };
}

const TAB_LABEL: Record<PlaygroundTab, string> = {
  manual: "Manual Test",
  broadcast: "Broadcast",
  variables: "Variable Testing",
};
const SMS_ERROR = "Error sending test message";
const EMAIL_ERROR = "Error sending manual test";
const BROADCAST_ERROR = "Error sending broadcast";

const text = z.string().default("");
const playgroundForm = z.discriminatedUnion(
  "intent",
  [
    z.object({
      intent: z.literal("manual"),
      type: z.unknown(),
      email: text,
      subject: text,
      content: text,
      phone: text,
      message: text,
      nonce: text,
    }),
    z.object({ intent: z.literal("check"), ...broadcastFields }),
    z.object({ intent: z.literal("send"), ...broadcastFields }),
    z.object({
      intent: z.literal("template"),
      name: text,
      templateContent: text,
      templateType: text,
      templateSubject: text,
    }),
  ],
  intentError(),
);

export type PlaygroundCheck = {
  ok: true;
  intent: "check";
  check: BroadcastCheck;
  nonce: string;
  /** What Confirm posts again: the message, the picked ids and the time as typed, with its zone. */
  input: {
    type: "sms" | "email";
    subject: string | null;
    content: string;
    contactIds: number[];
    /** A segment audience: Confirm sends to the segment, read again when it goes out. */
    segmentId: number | null;
    scheduledAt: string;
    tz: string;
  };
};

export async function action(args: ActionFunctionArgs) {
  const { context } = args;
  const errorTitle = (intent: string | undefined) =>
    intent === "template"
      ? TEMPLATE_CREATE_ERROR
      : intent === "check" || intent === "send"
        ? BROADCAST_ERROR
        : undefined;
  return formAction(args, { schema: playgroundForm, title: errorTitle }, async (form, { user, actor }) => {
    const deps = context.domain();
    if (form.intent === "manual") {
      const email = form.type === "email";
      try {
        requirePublicUrl(context.cloudflare.env);
        if (email)
          await sendManualEmailTest(
            deps,
            parseInput(manualEmailSchema, { email: form.email, subject: form.subject, content: form.content }),
            actor,
            form.nonce || undefined,
          );
        else
          await sendManualSmsTest(
            deps,
            parseInput(manualSmsSchema, { phone: form.phone, message: form.message }),
            actor,
            form.nonce || undefined,
          );
      } catch (err) {
        // The manual form's toast names the channel (SPEC §8).
        if (err instanceof AppError && !err.title)
          throw new AppError(err.code, err.message, {
            field: err.field,
            retryAfter: err.retryAfter,
            title: email ? EMAIL_ERROR : SMS_ERROR,
          });
        throw err;
      }
      return redirectWithToast(context, `/testing?tab=manual${email ? "&type=email" : ""}`, {
        title: "Test message queued",
        description: email ? "The test email is on its way." : "The test SMS is on its way.",
      });
    }
    if (form.intent === "check") {
      const input = broadcastInput(form);
      if (input.type === "email" && !input.subject)
        throw new AppError("validation", "Please enter a subject", { field: "subject" });
      const contactIds = await checkedRecipients(context.db, input, viewerOf(user), deps.now);
      const check = await checkBroadcast(
        context.db,
        {
          ...input,
          contactIds,
          scheduledAt: input.scheduledAt ? new Date(input.scheduledAt) : null,
          publicBaseUrl: messagingConfig(context.cloudflare.env).publicBaseUrl,
          senderId: user.id,
          variables: deps.hooks.variables,
        },
        deps.now,
      );
      // Carriers block texts from a local number without a verified 10DLC campaign (decision 067).
      if (input.type === "sms") check.warnings.push(...(await unregisteredSenderWarnings(context.db, context.sms())));
      const reply: PlaygroundCheck = {
        ok: true,
        intent: "check",
        check,
        nonce: crypto.randomUUID(),
        input: {
          type: input.type,
          subject: input.subject ?? null,
          content: input.content,
          contactIds: input.segmentId === undefined ? contactIds : [],
          segmentId: input.segmentId ?? null,
          scheduledAt: input.scheduledAt ? form.scheduledAt : "",
          tz: form.tz,
        },
      };
      return json(reply);
    }
    if (form.intent === "send") {
      const input = broadcastInput(form);
      if (!form.nonce) throw new AppError("validation", "Please review the pre-send check first");
      requirePublicUrl(context.cloudflare.env);
      // Confirm sends what the check promised: the recipients it listed as missing a variable are left out.
      const result = await sendBroadcast(deps, input, actor, `playground:${form.nonce}`, {
        skipMissingVariables: true,
      });
      return redirect(`/testing/sends/${result.broadcastId}`);
    }
    const input = parseInput(createTemplateSchema, {
      name: form.name,
      content: form.templateContent,
      type: form.templateType || "sms",
      subject: form.templateSubject || null,
    });
    const t = await createTemplate(context.db, input, user.id, deps.now);
    return redirectWithToast(
      context,
      `/testing?tab=manual${t.type === "email" ? "&type=email" : ""}&template=${t.id}`,
      { title: "Template created", description: `"${t.name}" is ready to use.` },
    );
  });
}

type PlaygroundReply = PlaygroundCheck | FormFailure | undefined;

function VariablesReference() {
  return (
    <Card
      title="Variables reference"
      description="Use {{name}} in a message; each is filled per contact."
      data-testid="variables-reference"
    >
      <details className="group">
        <summary className="cursor-pointer text-sm font-medium text-primary-text">
          <BookOpen aria-hidden="true" className="mr-1 inline size-4" />
          Show all variables
        </summary>
        <div className="mt-3 grid gap-3 md:grid-cols-2">
          {variablesByCategory().map(({ category, variables }) => (
            <details
              key={category}
              open
              className="rounded-md border border-border p-2"
              data-testid="variable-category"
            >
              <summary className="cursor-pointer font-semibold">
                {category} <span className="text-xs text-fg-subtle">({variables.length})</span>
              </summary>
              <ul className="mt-2 space-y-1 text-sm">
                {variables.map((v) => (
                  <li key={v.name} data-testid="variable-item">
                    <code className="rounded bg-muted px-1">{`{{${v.name}}}`}</code> — {v.description}{" "}
                    <span className="text-fg-subtle">e.g. {v.example}</span>
                  </li>
                ))}
              </ul>
            </details>
          ))}
        </div>
      </details>
    </Card>
  );
}

type Data = ReturnType<typeof useLoaderData<typeof loader>>;

function TypeSwitch({ type, tab }: { type: "sms" | "email"; tab: PlaygroundTab }) {
  return (
    <nav aria-label="Message type" className="flex gap-2">
      {(["sms", "email"] as const).map((t) => (
        <Button
          key={t}
          size="sm"
          variant={t === type ? "primary" : "outline"}
          to={`/testing?tab=${tab}${t === "email" ? "&type=email" : ""}`}
          aria-current={t === type ? "page" : undefined}
        >
          {t === "sms" ? "SMS" : "Email"}
        </Button>
      ))}
    </nav>
  );
}

function ErrorAlert({ reply, intent }: { reply: PlaygroundReply; intent: string }) {
  if (!reply || reply.ok || reply.intent !== intent) return null;
  return (
    <Alert tone="danger" data-testid="form-error">
      <strong>{reply.title}</strong>: {reply.message}
    </Alert>
  );
}

function ManualTab({ d, reply, busy }: { d: Data; reply?: PlaygroundReply; busy: boolean }) {
  const email = d.type === "email";
  const pre = d.template && d.template.type === d.type ? d.template : null;
  return (
    <Card
      title="Manual Test"
      description={
        email
          ? "Send one test email to your own address or a team member's (their sign-in email)."
          : "Send one test SMS to your own number or a team member's (the phone on their profile), inside that number's calling hours; opt-outs apply."
      }
    >
      <div className="space-y-3">
        <TemplatePicker
          templates={d.templates}
          selectedId={pre?.id}
          type={d.type}
          targetId={email ? "manual-content" : "manual-message"}
          subjectTargetId="manual-subject"
        />
        <Form method="post" className="space-y-3" key={`${d.type}-${pre?.id ?? ""}`} data-testid="manual-form">
          <HiddenFields fields={{ intent: "manual", type: d.type }} />
          {email ? (
            <>
              <Field label="Email" name="email" type="email" placeholder="test@example.com" />
              <Field label="Subject" name="subject" id="manual-subject" defaultValue={pre?.subject ?? ""} />
              <Field
                label="Content"
                name="content"
                id="manual-content"
                as="textarea"
                rows={5}
                defaultValue={pre?.content ?? ""}
              />
            </>
          ) : (
            <>
              <Field label="Phone number" name="phone" type="tel" placeholder="+15551234567" />
              <Field
                label="Message"
                name="message"
                id="manual-message"
                as="textarea"
                rows={4}
                defaultValue={pre?.content ?? ""}
              />
            </>
          )}
          <ErrorAlert reply={reply} intent="manual" />
          <p className="text-sm text-fg-muted" data-testid="test-sends-left">
            {d.testSends.remaining} of {d.testSends.limit} test sends left this hour
          </p>
          <Button type="submit" icon={Send} disabled={busy}>
            {busy ? "Sending..." : email ? "Send Test Email" : "Send Test SMS"}
          </Button>
        </Form>
      </div>
    </Card>
  );
}

function CheckPanel({ reply }: { reply: PlaygroundCheck }) {
  const { check, input, nonce } = reply;
  const n = (x: number) => formatCount(x);
  // What the check judged, posted again by Confirm and by the download.
  const posted = { ...input, subject: input.subject ?? "" };
  return (
    <Card title="Pre-send check" description="Review before anything is sent." data-testid="presend-check">
      <PreSendSummary check={check} channel={input.type} />
      <Form method="post" className="mt-3 flex gap-2">
        <HiddenFields fields={{ intent: "send", nonce, ...posted }} />
        <Button type="submit" icon={Send} disabled={check.recipients === 0} data-testid="confirm-send">
          Confirm and send to {n(check.recipients)}
        </Button>
      </Form>
      {/* A plain form post: the browser downloads the list, with or without JavaScript. */}
      <Form method="post" action="/testing/recipients.csv" reloadDocument className="mt-2">
        <HiddenFields fields={posted} />
        <Button type="submit" variant="outline" size="sm" icon={Download} data-testid="presend-download">
          Download the list, one row per contact (CSV)
        </Button>
      </Form>
    </Card>
  );
}

function BroadcastTab({ d, reply, busy }: { d: Data; reply?: PlaygroundReply; busy: boolean }) {
  const email = d.type === "email";
  const { search } = useLocation();
  const sp = new URLSearchParams(search);
  const pre = d.template && d.template.type === d.type ? d.template : null;
  if (reply?.ok && reply.intent === "check") return <CheckPanel reply={reply} />;
  // A refused check or send keeps the draft: the message, the time and the picked contacts come back in the form.
  const draft = isFormFailure(reply) && (reply.intent === "check" || reply.intent === "send") ? reply : undefined;
  const posted = (name: string, fallback: string) => (draft ? postedValue(draft, name) : fallback);
  const picked = draft
    ? [draft.values.contactIds ?? []]
        .flat()
        .map(Number)
        .filter((n) => Number.isSafeInteger(n) && n > 0)
    : d.picked;
  return (
    <Card
      title="Broadcast"
      description="One message per picked contact, now or at a scheduled time. A pre-send check comes first."
    >
      <div className="space-y-3">
        <TemplatePicker
          templates={d.templates}
          selectedId={pre?.id}
          type={d.type}
          targetId="broadcast-content"
          subjectTargetId="broadcast-subject"
        />
        <Form method="post" className="space-y-3" data-testid="broadcast-form">
          <HiddenFields fields={{ tab: "broadcast", type: d.type }} />
          {email ? (
            <Field
              label="Subject"
              name="subject"
              id="broadcast-subject"
              defaultValue={posted("subject", sp.get("subject") ?? pre?.subject ?? "")}
            />
          ) : null}
          <Field
            label="Message"
            name="content"
            id="broadcast-content"
            as="textarea"
            rows={4}
            defaultValue={posted("content", sp.get("content") ?? pre?.content ?? "")}
            hint="{{firstName}} fills in each contact's value; {{firstName|there}} uses “there” when a contact has none."
          />
          <ZonedDateTimeField
            label="Scheduled time (optional)"
            name="scheduledAt"
            value={posted("scheduledAt", sp.get("scheduledAt") ?? "")}
            tz={posted("tz", sp.get("tz") ?? "")}
            hint="Leave empty to send now."
            errors={fieldErrorsOf(draft, "scheduledAt")}
          />
          <fieldset className="space-y-2">
            <legend className="text-sm font-semibold">Select Test Contacts</legend>
            <ContactPicker
              data={d.picker}
              picked={picked}
              action="/testing"
              segments={{
                choices: d.segments.choices,
                selected: draft ? Number(postedValue(draft, "segmentId")) || null : d.segments.selected,
              }}
            />
          </fieldset>
          <ErrorAlert reply={reply} intent="check" />
          <ErrorAlert reply={reply} intent="send" />
          <Button type="submit" name="intent" value="check" icon={Send} disabled={busy} data-testid="broadcast-check">
            Review and send
          </Button>
        </Form>
      </div>
    </Card>
  );
}

function VariablesTab({ d }: { d: Data }) {
  const v = d.variables;
  return (
    <Card
      title="Variable Testing"
      description="Render a message for a contact (or sample data) and see what each recipient would get."
    >
      <Form method="get" className="space-y-3" data-testid="variables-form">
        <input type="hidden" name="tab" value="variables" />
        <Field
          label="Message"
          name="content"
          as="textarea"
          rows={4}
          defaultValue={v?.content ?? "Hi {{firstName}}, this is {{company}}."}
        />
        <Field
          as="select"
          label="Contact"
          name="contactId"
          defaultValue={v?.contactId ? String(v.contactId) : ""}
          placeholder="Sample data"
          options={d.picker.contacts.map((c) => ({ value: c.id, label: c.name }))}
        />
        <Button type="submit">Render</Button>
      </Form>
      {v ? (
        <div className="mt-4 space-y-2" data-testid="variables-result">
          <p className="text-sm text-fg-muted">
            {v.contactName ? `Rendered for ${v.contactName}` : "Rendered with sample data"}
          </p>
          <p className="rounded-md bg-muted p-3 text-sm whitespace-pre-wrap" data-testid="rendered-text">
            {v.text}
          </p>
          <p className="flex flex-wrap gap-2 text-sm">
            <Badge tone="neutral">{v.characters} characters</Badge>
            <Badge tone="neutral" data-testid="segment-count">
              {v.segments} SMS segment{v.segments === 1 ? "" : "s"} ({v.encoding})
            </Badge>
            {v.unknown.length ? (
              <Badge tone="danger">Unknown: {v.unknown.map((u) => `{{${u}}}`).join(", ")}</Badge>
            ) : null}
            {v.missing.length ? (
              <Badge tone="warning">No value: {v.missing.map((u) => `{{${u}}}`).join(", ")}</Badge>
            ) : null}
          </p>
        </div>
      ) : null}
    </Card>
  );
}

function CreateTemplateCard({ reply, type, draft }: { reply: PlaygroundReply; type: "sms" | "email"; draft: string }) {
  const resetting = useResetOnSuccess(reply?.ok === false && reply.intent === "template");
  return (
    <Card
      title="Create Template"
      description="Save a message to reuse; its {{variables}} are found for you."
      data-testid="create-template"
    >
      <Form method="post" className="space-y-3" data-testid="template-form" {...resetting}>
        <input type="hidden" name="intent" value="template" />
        <Field label="Template name" name="name" />
        <Field as="select" label="Type" name="templateType" defaultValue={type} options={CHANNEL_OPTIONS} />
        <Field label="Subject (email)" name="templateSubject" />
        <Field
          label="Template content"
          name="templateContent"
          as="textarea"
          rows={3}
          defaultValue={draft}
          key={draft}
        />
        <ErrorAlert reply={reply} intent="template" />
        <Button type="submit" variant="secondary">
          Save Template
        </Button>
      </Form>
    </Card>
  );
}

export default function TestingPlayground() {
  const d = useLoaderData<typeof loader>();
  const reply = useActionData<typeof action>() as PlaygroundReply;
  const navigation = useNavigation();
  const busy = navigation.state === "submitting";
  useFailureToast(reply, failureToast(reply));
  const href = (t: PlaygroundTab) => `/testing?tab=${t}${d.type === "email" ? "&type=email" : ""}`;
  return (
    <div className="space-y-4">
      <PageHeader
        title="Message Testing Playground"
        description={<p>Manual tests, broadcasts and variable testing.</p>}
        actions={<TypeSwitch type={d.type} tab={d.tab} />}
      />
      <VariablesReference />
      <div className="grid gap-4 lg:grid-cols-[2fr_1fr]">
        <Tabs
          label="Playground tabs"
          value={d.tab}
          items={PLAYGROUND_TABS.map((t) => ({ value: t, label: TAB_LABEL[t], href: href(t) }))}
        >
          {d.tab === "manual" ? (
            <ManualTab d={d} reply={reply} busy={busy} />
          ) : d.tab === "broadcast" ? (
            <BroadcastTab d={d} reply={reply} busy={busy} />
          ) : (
            <VariablesTab d={d} />
          )}
        </Tabs>
        <CreateTemplateCard reply={reply} type={d.type} draft={d.draft} />
      </div>
    </div>
  );
}
