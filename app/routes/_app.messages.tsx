import { getFormProps, getInputProps, getTextareaProps, useForm } from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod";
import { data, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/cloudflare";
import { Form, Link, useActionData, useLoaderData, useNavigation, useSearchParams } from "@remix-run/react";
import { z } from "zod";
import { requireUser } from "~/auth/guard.server";
import { Spinner } from "~/components/spinner";
import { searchParamsOf } from "~/lib/api.server";
import { AppError } from "~/lib/app-error";
import { throwAsResponse } from "~/lib/http.server";
import { zodId } from "~/lib/ids";
import type { MessageListItem } from "~/messaging/list-messages.server";
import { loadMessageCenter } from "~/messaging/load-message-center.server";
import { MESSAGE_TABS, type MessageTab } from "~/messaging/message-tabs";
import { LocalTime } from "~/components/local-time";
import { providerMode } from "~/messaging/providers/registry.server";
import { receiveInboundSms } from "~/messaging/receive-inbound.server";
import { redirectWithToast } from "~/toast/toast.server";

export const meta: MetaFunction = () => [{ title: "Message Center — Helio" }];

const query = z.object({
  q: z.string().max(200).optional().catch(undefined),
  tab: z.enum(MESSAGE_TABS).optional().catch(undefined),
  before: zodId().optional().catch(undefined),
});

export async function loader(args: LoaderFunctionArgs) {
  await requireUser(args);
  const { context } = args;
  return loadMessageCenter(context.db, context.cloudflare.env, context.clock(), query.parse(searchParamsOf(args.request)));
}

export const simulateSchema = z.object({
  phone: z.string({ required_error: "Phone is required" }).trim().min(1, "Phone is required"),
  body: z.string({ required_error: "Message is required" }).trim().min(1, "Message is required").max(1600),
});

/** Local mode only: pretend a contact texted back, through the same path as Twilio's inbound webhook. */
export async function action(args: ActionFunctionArgs) {
  await requireUser(args);
  const env = args.context.cloudflare.env;
  if (providerMode(env).sms !== "outbox") throwAsResponse(new AppError("forbidden", "Simulated replies exist only with the local outbox"));
  const submission = parseWithZod(await args.request.formData(), { schema: simulateSchema });
  if (submission.status !== "success") return data(submission.reply(), { status: 400 });
  const result = await receiveInboundSms(
    args.context.db,
    env.JOBS,
    { sid: "SMsim" + crypto.randomUUID().replace(/-/g, ""), from: submission.value.phone, to: "local-outbox", body: submission.value.body },
    args.context.clock(),
  );
  return redirectWithToast(args.context, "/messages?tab=incoming", {
    title: "Reply simulated",
    description: result.keyword ? `Handled as ${result.keyword.toUpperCase()}` : "Recorded as an incoming message",
  });
}

const TAB_LABEL: Record<MessageTab, string> = { all: "All", incoming: "Incoming", outgoing: "Outgoing", failed: "Failed" };

function statusIcon(m: MessageListItem) {
  if (m.direction === "inbound") return { icon: "↙", cls: "text-sky-600" };
  if (m.status === "delivered") return { icon: "✓", cls: "text-green-600" };
  if (m.status === "failed" || m.status === "undelivered") return { icon: "✕", cls: "text-red-600" };
  if (m.status === "skipped") return { icon: "⊘", cls: "text-slate-500" };
  return { icon: "↗", cls: "text-amber-600" };
}

export default function MessageCenter() {
  const { messages, nextCursor, counts, backlog, pacing, q, tab, localMode } = useLoaderData<typeof loader>();
  const navigation = useNavigation();
  const [params] = useSearchParams();
  const lastResult = useActionData<typeof action>();
  const [form, fields] = useForm({
    lastResult,
    constraint: getZodConstraint(simulateSchema),
    onValidate: ({ formData }) => parseWithZod(formData, { schema: simulateSchema }),
    shouldValidate: "onSubmit",
  });
  const tabHref = (t: MessageTab) => `?${new URLSearchParams({ ...(q ? { q } : {}), ...(t !== "all" ? { tab: t } : {}) })}`;
  const loading = navigation.state === "loading" && navigation.location?.pathname === "/messages";

  return (
    <div className="space-y-4">
      <div className="flex flex-wrap items-end justify-between gap-3">
        <div>
          <h2 className="text-2xl font-bold">Message Center</h2>
          {localMode ? <p className="text-sm text-slate-600">Local outbox mode: nothing leaves this machine.</p> : null}
        </div>
        <Form method="get" className="flex w-full max-w-md gap-2" role="search">
          {tab !== "all" ? <input type="hidden" name="tab" value={tab} /> : null}
          <input
            type="search"
            name="q"
            defaultValue={q}
            placeholder="Search messages or phone numbers..."
            aria-label="Search messages or phone numbers"
            className="w-full rounded-md border border-slate-300 px-3 py-2 text-sm"
          />
          <button type="submit" className="rounded-md border border-slate-300 bg-white px-3 py-2 text-sm hover:bg-slate-50">
            Search
          </button>
        </Form>
      </div>

      {backlog.pending + backlog.queued + backlog.sending > 0 ? (
        <section className="rounded-lg border border-amber-200 bg-amber-50 p-3 text-sm" data-testid="backlog">
          <strong>Sending backlog:</strong> {backlog.queued.toLocaleString("en-US")} queued, {backlog.sending.toLocaleString("en-US")} sending,{" "}
          {backlog.pending.toLocaleString("en-US")} waiting (scheduled or outside allowed hours)
          {backlog.nextScheduledAt ? (
            <>
              {" "}
              · next at <LocalTime iso={backlog.nextScheduledAt} />
            </>
          ) : null}
          <span className="block text-xs text-slate-600">
            Pacing: {pacing.smsRatePerSecond}/s and {pacing.smsDailyCap.toLocaleString("en-US")}/day per sending number
            {backlog.senders.map((s) => ` · ${s.sender}: ${s.sentToday.toLocaleString("en-US")} today`).join("")}
          </span>
        </section>
      ) : null}

      <nav className="flex gap-1 border-b border-slate-200" aria-label="Message tabs">
        {MESSAGE_TABS.map((t) => (
          <Link
            key={t}
            to={tabHref(t)}
            aria-current={tab === t ? "page" : undefined}
            className={`-mb-px border-b-2 px-4 py-2 text-sm ${tab === t ? "border-amber-500 font-semibold" : "border-transparent text-slate-600 hover:text-slate-900"}`}
          >
            {TAB_LABEL[t]} <span className="ml-1 rounded-full bg-slate-100 px-2 text-xs">{counts[t].toLocaleString("en-US")}</span>
          </Link>
        ))}
      </nav>

      {loading ? (
        <Spinner label="Loading messages..." />
      ) : messages.length === 0 ? (
        <div className="rounded-lg border border-dashed border-slate-300 bg-white p-10 text-center">
          <p className="font-medium">No messages found</p>
          {q ? <p className="mt-1 text-sm text-slate-500">Try adjusting your search criteria</p> : null}
        </div>
      ) : (
        <ul className="divide-y divide-slate-100 rounded-lg border border-slate-200 bg-white" data-testid="message-list">
          {messages.map((m) => {
            const s = statusIcon(m);
            return (
              <li key={m.id} className="flex gap-3 p-4" data-testid="message-row">
                <span aria-hidden="true" className={`mt-1 w-5 text-center text-lg ${s.cls}`}>
                  {s.icon}
                </span>
                <div className="min-w-0 flex-1">
                  <div className="flex flex-wrap items-center gap-2">
                    <span className="font-medium">{m.contactName ?? m.phone ?? m.email}</span>
                    <span className="text-sm text-slate-500">{m.channel === "email" ? m.email : m.phone}</span>
                    <span className={`rounded-full px-2 py-0.5 text-xs ${m.direction === "inbound" ? "bg-sky-100 text-sky-800" : m.status === "failed" || m.status === "undelivered" ? "bg-red-100 text-red-800" : "bg-slate-100 text-slate-700"}`}>
                      {m.direction === "inbound" ? "Received" : m.status}
                    </span>
                    {m.isTest ? <span className="rounded-full bg-violet-100 px-2 py-0.5 text-xs text-violet-800">test</span> : null}
                  </div>
                  {m.subject ? <p className="mt-1 text-sm font-medium">{m.subject}</p> : null}
                  <p className="mt-1 text-sm break-words whitespace-pre-wrap text-slate-800">{m.content}</p>
                  {m.errorMessage ? <p className="mt-1 text-xs text-slate-500">{m.errorMessage}</p> : null}
                  <p className="mt-1 flex flex-wrap gap-3 text-xs text-slate-500">
                    <LocalTime iso={m.createdAt} />
                    {m.twilioSid ? <span title={m.twilioSid}>ID …{m.twilioSid.slice(-8)}</span> : null}
                    {m.campaignId ? <span>Campaign #{m.campaignId}</span> : null}
                  </p>
                </div>
              </li>
            );
          })}
        </ul>
      )}
      {nextCursor ? (
        <Link to={`?${new URLSearchParams({ ...Object.fromEntries(params), before: String(nextCursor) })}`} className="inline-block text-sm text-amber-700 underline">
          Older messages
        </Link>
      ) : null}

      {localMode ? (
        <section className="rounded-lg border border-slate-200 bg-white p-4">
          <h3 className="font-semibold">Simulate an inbound reply</h3>
          <p className="text-sm text-slate-600">Local mode only: records a text from this number as if Twilio delivered it (STOP, START and HELP work too).</p>
          <Form method="post" {...getFormProps(form)} className="mt-3 grid gap-2 sm:grid-cols-[12rem_1fr_auto]">
            <div>
              <input {...getInputProps(fields.phone, { type: "tel" })} placeholder="+15551234567" aria-label="From phone" className="w-full rounded-md border border-slate-300 px-3 py-2 text-sm" />
              <p className="text-xs text-red-600">{fields.phone.errors}</p>
            </div>
            <div>
              <textarea {...getTextareaProps(fields.body)} rows={1} placeholder="Reply text" aria-label="Reply text" className="w-full rounded-md border border-slate-300 px-3 py-2 text-sm" />
              <p className="text-xs text-red-600">{fields.body.errors}</p>
            </div>
            <button type="submit" className="h-fit rounded-md bg-amber-500 px-4 py-2 text-sm font-semibold text-slate-900 hover:bg-amber-600">
              Simulate reply
            </button>
          </Form>
        </section>
      ) : null}
    </div>
  );
}
