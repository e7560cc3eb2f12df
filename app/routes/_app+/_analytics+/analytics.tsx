import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { Link, useLoaderData } from "@remix-run/react";
import { CheckCircle2, MessageSquare, Send, ShieldCheck, TrendingUp } from "lucide-react";
import { getAnalytics } from "~/analytics/get-analytics.server";
import { MessagesChart } from "~/analytics/messages-chart";
import { parseRange, RANGES } from "~/analytics/rates";
import { viewerOf } from "~/contacts/contact-scope.server";
import { requireUser } from "~/http/guard.server";
import { LocalTime } from "~/components/local-time";
import {
  ActiveBadge,
  Alert,
  Badge,
  Button,
  Card,
  cx,
  EmptyState,
  focusRing,
  ItemList,
  messageStatusTone,
  PageHeader,
  StatCard,
  Table,
  TBody,
  Td,
  THead,
} from "~/components/ui";
import { formatCount } from "~/lib/format-count";

export const meta: MetaFunction = () => [{ title: "Analytics — Helio" }];

export async function loader(args: LoaderFunctionArgs) {
  const me = await requireUser(args);
  const range = parseRange(new URL(args.request.url).searchParams.get("range"));
  const analytics = await getAnalytics(
    args.context.db,
    args.context.cloudflare.env as unknown as Parameters<typeof getAnalytics>[1],
    args.context.clock(),
    range,
    viewerOf(me),
  );
  // The compliance report is superuser work (decision 023): the link is shown to those who can open it.
  return { ...analytics, canSeeCompliance: me.role === "superuser" };
}

export default function Analytics() {
  const data = useLoaderData<typeof loader>();
  const { stats, health } = data;
  return (
    <div className="space-y-6">
      <PageHeader
        title="Analytics"
        description="Figures from counters kept as messages are created and change status."
        actions={
          data.canSeeCompliance ? (
            <Button to="/compliance" variant="secondary" icon={ShieldCheck}>
              Compliance report
            </Button>
          ) : null
        }
      />
      {health.publicUrl.problem ? (
        <Alert tone="danger" data-testid="public-url-banner">
          <strong>Sending is refused:</strong> {health.publicUrl.problem} See System Health below.
        </Alert>
      ) : null}
      <div className="grid gap-4 sm:grid-cols-2 lg:grid-cols-4" data-testid="analytics-stats">
        <StatCard label="Messages Sent" value={stats.messagesSent} icon={Send} />
        <StatCard
          label="Delivery Rate"
          value={stats.deliveryRate}
          icon={CheckCircle2}
          hint={`${formatCount(stats.delivered)} delivered`}
        />
        <StatCard label="Responses" value={stats.responses} icon={MessageSquare} />
        <StatCard label="Response Rate" value={stats.responseRate} icon={TrendingUp} hint="Responses ÷ messages sent" />
      </div>

      <Card
        title="Messages per day"
        description="By the day each message was created (UTC)."
        actions={
          <nav aria-label="Chart range" className="flex gap-1">
            {RANGES.map((r) => (
              <Link
                key={r}
                to={`?range=${r}`}
                preventScrollReset
                aria-current={data.range === r ? "page" : undefined}
                className={cx(
                  "rounded-md border px-2 py-1 text-xs",
                  focusRing,
                  data.range === r ? "border-primary bg-primary-soft font-semibold" : "border-border text-fg-muted",
                )}
              >
                {r} days
              </Link>
            ))}
          </nav>
        }
      >
        <MessagesChart points={data.daily} />
      </Card>

      <Card
        title="Campaign Performance"
        description="The first 5 campaigns: enrolled → sent → delivered → replied → opted out."
      >
        {data.campaigns.length === 0 ? (
          <EmptyState title="No campaigns yet" />
        ) : (
          <Table data-testid="campaign-performance">
            <THead
              columns={[
                "Campaign",
                "Enrolled",
                "Sent",
                "Delivered",
                "Replied",
                "Opted out",
                "Delivery rate",
                "Response rate",
              ]}
            />
            <TBody>
              {data.campaigns.map((c) => (
                <tr key={c.id}>
                  <Td className="font-medium">{c.name}</Td>
                  <Td>{c.enrolled}</Td>
                  <Td>{c.sent}</Td>
                  <Td>{c.delivered}</Td>
                  <Td>{c.replied}</Td>
                  <Td>{c.optedOut}</Td>
                  <Td>{c.deliveryRate}</Td>
                  <Td>{c.responseRate}</Td>
                </tr>
              ))}
            </TBody>
          </Table>
        )}
      </Card>

      <div className="grid gap-4 lg:grid-cols-2">
        <Card title="Auto-Responder Activity">
          <ItemList
            items={data.responders}
            empty="No auto-responders configured"
            className="space-y-2 text-sm"
            itemClassName="flex items-center justify-between gap-2"
          >
            {(r) => (
              <>
                <span>{r.name}</span>
                <span className="flex items-center gap-2">
                  <ActiveBadge active={r.isActive} />
                  <span className="text-fg-muted">{r.responseCount} responses</span>
                </span>
              </>
            )}
          </ItemList>
        </Card>
        <Card title="Recent Message Activity">
          <ItemList
            items={data.recent}
            empty="No messages yet"
            className="space-y-2 text-sm"
            itemClassName="flex flex-wrap items-center gap-2"
            data-testid="recent-messages"
          >
            {(m) => (
              <>
                <Badge tone={messageStatusTone(m.direction === "inbound" ? "received" : m.status)}>
                  {m.direction === "inbound" ? "Received" : m.status}
                </Badge>
                <span className="font-medium">{m.to}</span>
                <span className="truncate text-fg-muted">{m.preview}</span>
                <span className="ml-auto text-xs text-fg-subtle">
                  <LocalTime iso={m.createdAt} pattern="MMM d, HH:mm" />
                </span>
              </>
            )}
          </ItemList>
        </Card>
      </div>

      <Card title="System Health" description="Measured when this page loaded." data-testid="system-health">
        {health.publicUrl.problem ? (
          <Alert tone="danger" className="mb-4" data-testid="public-url-problem">
            <p className="font-semibold">Sending and Twilio webhooks are refused</p>
            <p>{health.publicUrl.problem}</p>
            <p className="mt-1 text-fg-muted">
              Now: {health.publicUrl.value ? <code>{health.publicUrl.value}</code> : "not set"}. Set it with{" "}
              {health.publicUrl.how}. Messages wait as pending and go once it is set; Twilio retries refused callbacks.
              {health.publicUrl.lastRefusal ? (
                <>
                  {" "}
                  Last refused {health.publicUrl.lastRefusal.what === "webhook" ? "webhook" : "send"}:{" "}
                  <LocalTime iso={health.publicUrl.lastRefusal.at} pattern="MMM d, HH:mm:ss" />.
                </>
              ) : null}
            </p>
          </Alert>
        ) : null}
        <dl className="grid gap-x-6 gap-y-2 text-sm sm:grid-cols-2">
          <dt className="text-fg-muted">Public URL</dt>
          <dd>
            {health.publicUrl.value ? <code>{health.publicUrl.value}</code> : "Not set"}
            {health.publicUrl.problem ? (
              <>
                {" "}
                <Badge tone="danger">Unusable</Badge>
              </>
            ) : null}
          </dd>
          <dt className="text-fg-muted">Database (D1)</dt>
          <dd>
            <Badge tone={health.d1.ok ? "success" : "danger"}>{health.d1.ok ? "Reachable" : "Unreachable"}</Badge>{" "}
            {health.d1.latencyMs} ms for SELECT 1
            {health.d1.error ? <span className="text-danger-text"> — {health.d1.error}</span> : null}
          </dd>
          <dt className="text-fg-muted">Send queue backlog</dt>
          <dd>
            {formatCount(health.queue.backlog)} waiting
            {health.queue.oldestPendingAt ? (
              <>
                {" "}
                · oldest since <LocalTime iso={health.queue.oldestPendingAt} pattern="MMM d, HH:mm" />
              </>
            ) : null}
          </dd>
          <dt className="text-fg-muted">Last scheduled tick</dt>
          <dd>
            {health.cron ? (
              <>
                <LocalTime iso={health.cron.lastTickAt} pattern="MMM d, HH:mm:ss" />
                {health.cron.failed ? ` · ${health.cron.failed} task(s) failed` : ""}
              </>
            ) : (
              "Never (Cron Triggers do not fire under local development)"
            )}
          </dd>
          {(["sms", "email", "ai"] as const).map((k) => {
            const p = health.providers[k];
            return [
              <dt key={`${k}-t`} className="text-fg-muted">
                {k === "sms" ? "SMS provider" : k === "email" ? "Email provider" : "AI provider"}
              </dt>,
              <dd key={`${k}-d`}>
                <Badge tone={p.configured ? "success" : "warning"}>
                  {p.configured ? p.provider : k === "ai" ? "Not configured" : "Local outbox"}
                </Badge>
                {p.lastError ? (
                  <span className="text-danger-text">
                    {" "}
                    Last error: {p.lastError.message} (<LocalTime iso={p.lastError.at} pattern="MMM d, HH:mm" />)
                  </span>
                ) : (
                  <span className="text-fg-muted"> No recorded failure</span>
                )}
              </dd>,
            ];
          })}
        </dl>
      </Card>
    </div>
  );
}
