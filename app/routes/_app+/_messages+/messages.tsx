import { getFormProps, useForm } from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod";
import { type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/cloudflare";
import { Form, useActionData, useLoaderData, useLocation, useNavigation } from "@remix-run/react";
import { useMemo } from "react";
import { ArrowDownLeft, ArrowUpRight, Ban, CircleCheck, CircleX, Inbox, MousePointerClick } from "lucide-react";
import { z } from "zod";
import { viewerOf } from "~/contacts/contact-scope.server";
import { requireUser } from "~/http/guard.server";
import {
  Alert,
  Badge,
  Button,
  TextLink,
  Card,
  EmptyState,
  Field,
  PageHeader,
  Pager,
  SearchBox,
  Spinner,
  Tabs,
  messageStatusTone,
} from "~/components/ui";
import { searchParamsOf } from "~/http/api.server";
import { AppError } from "~/lib/app-error";
import { throwAsResponse } from "~/http/http.server";
import { conformResult } from "~/components/form-failure";
import { formAction } from "~/http/form-action.server";
import { withDefaults } from "~/http/form-schema";
import { zodId } from "~/lib/ids";
import type { MessageListItem } from "~/message-center/list-messages.server";
import { loadMessageCenter } from "~/message-center/load-message-center.server";
import { MESSAGE_TABS, type MessageTab } from "~/message-center/message-tabs";
import { LocalTime } from "~/components/local-time";
import { providerMode } from "~/messaging/providers/registry.server";
import { receiveInboundSms } from "~/messaging/receive-inbound.server";
import { redirectWithToast } from "~/http/toast.server";
import { setLocalIgnoreQuietHours } from "~/messaging/org-settings.server";
import { QUIET_HOURS_NOTE } from "~/messaging/quiet-hours";
import { formatCount } from "~/lib/format-count";

export const meta: MetaFunction = () => [{ title: "Message Center — Helio" }];

const query = z.object({
  q: z.string().max(200).optional().catch(undefined),
  tab: z.enum(MESSAGE_TABS).optional().catch(undefined),
  before: zodId().optional().catch(undefined),
});

export async function loader(args: LoaderFunctionArgs) {
  const user = await requireUser(args);
  const { context } = args;
  const center = await loadMessageCenter(
    context.db,
    context.cloudflare.env,
    context.clock(),
    viewerOf(user),
    query.parse(searchParamsOf(args.request)),
  );
  return { ...center, isSuperuser: user.role === "superuser" };
}

export const simulateSchema = z.object({
  phone: z.string({ required_error: "Phone is required" }).trim().min(1, "Phone is required"),
  body: z.string({ required_error: "Message is required" }).trim().min(1, "Message is required").max(1600),
});

/**
 * Local mode only: pretend a contact texted back, through the same path as Twilio's inbound webhook; or (superusers)
 * switch quiet hours off for the local outbox, so a newcomer trying Helio at night sees texts go out.
 */
// Two forms: the simulated reply (no intent) and, for superusers, the local quiet-hours switch.
const messagesForm = withDefaults(
  {},
  z.discriminatedUnion("intent", [
    simulateSchema.extend({ intent: z.literal("simulate") }),
    z.object({ intent: z.literal("local-quiet-hours"), value: z.unknown() }),
  ]),
  (v) => ({ ...v, intent: v.intent === "local-quiet-hours" ? v.intent : "simulate" }),
);

export async function action(args: ActionFunctionArgs) {
  const env = args.context.cloudflare.env;
  const localOnly = () => {
    if (providerMode(env).sms !== "outbox")
      throwAsResponse(
        new AppError("forbidden", "Simulated replies and the quiet-hours switch exist only with the local outbox"),
      );
  };
  return formAction(args, { schema: messagesForm, before: localOnly }, async (input, { user }) => {
    if (input.intent === "local-quiet-hours") {
      if (user.role !== "superuser")
        throwAsResponse(new AppError("forbidden", "Only a superuser can change how the local outbox sends"));
      const on = input.value === "on";
      await setLocalIgnoreQuietHours(args.context.db, on, QUIET_HOURS_NOTE, args.context.clock());
      return redirectWithToast(args.context, "/messages", {
        title: on ? "Quiet hours ignored locally" : "Quiet hours respected again",
        description: on ? "Waiting marketing texts go out at the next cron tick (local outbox only)." : undefined,
      });
    }
    const result = await receiveInboundSms(
      args.context.db,
      args.context.queue,
      { sid: "SMsim" + crypto.randomUUID().replace(/-/g, ""), from: input.phone, to: "local-outbox", body: input.body },
      args.context.clock(),
    );
    return redirectWithToast(args.context, "/messages?tab=incoming", {
      title: "Reply simulated",
      description: result.keyword ? `Handled as ${result.keyword.toUpperCase()}` : "Recorded as an incoming message",
    });
  });
}

const TAB_LABEL: Record<MessageTab, string> = {
  all: "All",
  incoming: "Incoming",
  outgoing: "Outgoing",
  failed: "Failed",
};

function StatusIcon({ m }: { m: MessageListItem }) {
  const [Icon, cls] =
    m.direction === "inbound"
      ? [ArrowDownLeft, "text-info"]
      : m.status === "delivered"
        ? [CircleCheck, "text-success"]
        : m.status === "failed" || m.status === "undelivered"
          ? [CircleX, "text-danger"]
          : m.status === "skipped"
            ? [Ban, "text-fg-subtle"]
            : [ArrowUpRight, "text-primary-text"];
  return <Icon aria-hidden="true" className={`mt-0.5 size-5 shrink-0 ${cls}`} />;
}

export default function MessageCenter() {
  const {
    messages,
    nextCursor,
    counts,
    backlog,
    pacing,
    q,
    tab,
    localMode,
    isSuperuser,
    retentionMonths,
    quietZones,
    localIgnoreQuietHours,
  } = useLoaderData<typeof loader>();
  const navigation = useNavigation();
  const { search } = useLocation();
  const reply = useActionData<typeof action>();
  // One object per reply: conform applies a new lastResult each time it changes.
  const lastResult = useMemo(() => conformResult(reply), [reply]);
  const [form, fields] = useForm({
    lastResult,
    constraint: getZodConstraint(simulateSchema),
    onValidate: ({ formData }) => parseWithZod(formData, { schema: simulateSchema }),
    shouldValidate: "onSubmit",
  });
  const tabHref = (t: MessageTab) =>
    `?${new URLSearchParams({ ...(q ? { q } : {}), ...(t !== "all" ? { tab: t } : {}) })}`;
  const loading = navigation.state === "loading" && navigation.location?.pathname === "/messages";

  return (
    <div className="space-y-4">
      <PageHeader
        title="Message Center"
        description={localMode ? <p>Local outbox mode: nothing leaves this machine.</p> : undefined}
        actions={
          <div className="flex max-w-full flex-wrap items-center gap-2">
            <TextLink to="/messages/conversations">Conversations</TextLink>
            {isSuperuser ? <TextLink to="/organisation">Organisation</TextLink> : null}
            <SearchBox
              label="Search messages or phone numbers"
              value={q}
              placeholder="Search messages or phone numbers..."
              hidden={{ tab: tab !== "all" ? tab : undefined }}
              className="w-96 max-w-full"
            />
          </div>
        }
      />

      {backlog.pending + backlog.queued + backlog.sending > 0 ? (
        <Alert tone="warning" data-testid="backlog">
          <strong>Sending backlog:</strong> {formatCount(backlog.queued)} queued, {formatCount(backlog.sending)}{" "}
          sending, {formatCount(backlog.pending)} waiting (scheduled or outside allowed hours)
          {backlog.nextScheduledAt ? (
            <>
              {" "}
              · next at <LocalTime iso={backlog.nextScheduledAt} />
            </>
          ) : null}
          {backlog.pending > 0 && quietZones.length > 0 && !(localMode && localIgnoreQuietHours) ? (
            <span className="mt-1 block" data-testid="quiet-hours-explained">
              It is {quietZones.map((z) => `${z.localTime} in ${z.label}`).join(", ")}: marketing texts wait for 8 AM–9
              PM in each contact&apos;s own time zone (8 PM in FL, OK, MD and WA), and go out by themselves when it
              opens.
            </span>
          ) : null}
          <span className="block text-xs text-fg-muted">
            Pacing: {pacing.smsRatePerSecond}/s and {formatCount(pacing.smsDailyCap)}/day per sending number
            {backlog.senders.map((s) => ` · ${s.sender}: ${formatCount(s.sentToday)} today`).join("")}
          </span>
        </Alert>
      ) : null}

      <Tabs
        label="Message tabs"
        value={tab}
        items={MESSAGE_TABS.map((t) => ({
          value: t,
          label: TAB_LABEL[t],
          href: tabHref(t),
          count: counts[t].n,
          countAtLeast: counts[t].atLeast,
        }))}
      >
        {loading ? (
          <Spinner label="Loading messages..." />
        ) : messages.length === 0 ? (
          <Card className="border-dashed border-input p-0">
            <EmptyState
              icon={Inbox}
              title="No messages found"
              description={q ? "Try adjusting your search criteria" : undefined}
            />
          </Card>
        ) : (
          <ul className="divide-y divide-muted rounded-lg border border-border bg-surface" data-testid="message-list">
            {messages.map((m) => (
              <li key={m.id} className="flex gap-3 p-4" data-testid="message-row">
                <StatusIcon m={m} />
                <div className="min-w-0 flex-1">
                  <div className="flex flex-wrap items-center gap-2">
                    <span className="font-medium">{m.contactName ?? m.phone ?? m.email}</span>
                    <span className="text-sm text-fg-subtle">{m.channel === "email" ? m.email : m.phone}</span>
                    <Badge tone={messageStatusTone(m.status, m.direction)}>
                      {m.direction === "inbound" ? "Received" : m.status}
                    </Badge>
                    {m.isTest ? <Badge tone="accent">test</Badge> : null}
                    {m.linkClicks > 0 ? (
                      <span data-testid="message-clicks">
                        <Badge tone="success" icon={MousePointerClick}>
                          {m.linkClicks === 1 ? "1 link click" : `${formatCount(m.linkClicks)} link clicks`}
                        </Badge>
                      </span>
                    ) : null}
                  </div>
                  {m.subject ? <p className="mt-1 text-sm font-medium">{m.subject}</p> : null}
                  <p className="mt-1 text-sm break-words whitespace-pre-wrap text-fg">{m.content}</p>
                  {m.errorMessage ? <p className="mt-1 text-xs text-fg-subtle">{m.errorMessage}</p> : null}
                  <p className="mt-1 flex flex-wrap gap-3 text-xs text-fg-subtle">
                    <LocalTime iso={m.createdAt} />
                    {m.twilioSid ? <span title={m.twilioSid}>ID …{m.twilioSid.slice(-8)}</span> : null}
                    {m.campaignId ? <span>Campaign #{m.campaignId}</span> : null}
                  </p>
                </div>
              </li>
            ))}
          </ul>
        )}
        <div className="mt-4">
          <Pager
            search={search}
            prev={null}
            next={nextCursor}
            prevParam="after"
            nextParam="before"
            nextLabel="Older messages"
          />
        </div>
        <p className="mt-3 text-sm text-fg-muted" data-testid="retention-note">
          Messages older than {retentionMonths} months are archived.{" "}
          {isSuperuser ? <TextLink to="/messages/archives">Download archives</TextLink> : null}
        </p>
      </Tabs>

      {localMode ? (
        <Card
          title="Simulate an inbound reply"
          description="Local mode only: records a text from this number as if Twilio delivered it (STOP, START and HELP work too)."
        >
          <Form method="post" {...getFormProps(form)} className="grid gap-2 sm:grid-cols-[12rem_1fr_auto]">
            <Field label="From phone" hideLabel meta={fields.phone} type="tel" placeholder="+15551234567" />
            <Field label="Reply text" hideLabel meta={fields.body} as="textarea" rows={1} placeholder="Reply text" />
            <Button type="submit" className="h-fit">
              Simulate reply
            </Button>
          </Form>
        </Card>
      ) : null}

      {localMode && isSuperuser ? (
        <Card
          title="Quiet hours in local mode"
          description={
            localIgnoreQuietHours
              ? "Ignored: marketing texts go to the local outbox at any hour. With Twilio configured this switch has no effect."
              : "Respected, as in production: marketing texts wait for 8 AM–9 PM in each contact's time zone. Nothing leaves this machine, so you may turn them off to try sending at night."
          }
          data-testid="local-quiet-hours"
        >
          <Form method="post">
            <input type="hidden" name="intent" value="local-quiet-hours" />
            <input type="hidden" name="value" value={localIgnoreQuietHours ? "off" : "on"} />
            <Button type="submit" variant="secondary" size="sm">
              {localIgnoreQuietHours ? "Respect quiet hours again" : "Ignore quiet hours (local outbox only)"}
            </Button>
          </Form>
        </Card>
      ) : null}
    </div>
  );
}
