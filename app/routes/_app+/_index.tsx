import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { Link, useLoaderData } from "@remix-run/react";
import {
  BarChart3,
  CheckCheck,
  FlaskConical,
  Megaphone,
  MessageSquareReply,
  Plus,
  Send,
  Users,
  Zap,
} from "lucide-react";
import { requireUser } from "~/http/guard.server";
import { getDashboard } from "~/campaigns/get-dashboard.server";
import { getSpeedToLead, periodOf } from "~/analytics/get-speed-to-lead.server";
import { parseRange } from "~/analytics/rates";
import { SpeedToLeadCard } from "~/analytics/speed-to-lead-card";
import {
  ActiveBadge,
  Badge,
  Button,
  campaignStatusTone,
  Card,
  cx,
  EmptyState,
  focusRing,
  ItemList,
  StatCard,
} from "~/components/ui";
import { formatCount } from "~/lib/format-count";

export const meta: MetaFunction = () => [{ title: "Dashboard — Helio" }];

/**
 * Stat cards from maintained counters (message_counts, contact_totals), the first 5 campaigns and auto-responders,
 * and the speed-to-lead medians over `?range=` days (7, 30 or 90; contact_response_times, decision 037).
 */
export async function loader(args: LoaderFunctionArgs) {
  await requireUser(args);
  const range = parseRange(new URL(args.request.url).searchParams.get("range"));
  const [dashboard, speedToLead] = await Promise.all([
    getDashboard(args.context.db),
    getSpeedToLead(args.context.db, periodOf(args.context.clock(), range)),
  ]);
  return { ...dashboard, speedToLead, range };
}

const QUICK_ACTIONS = [
  { to: "/campaigns", title: "Create Sequence", text: "Build a multi-step campaign", icon: Plus },
  { to: "/testing", title: "Test Messages", text: "Try SMS and email before sending", icon: FlaskConical },
  { to: "/contacts", title: "Manage Contacts", text: "Add, import and organise leads", icon: Users },
  { to: "/analytics", title: "View Analytics", text: "See how your outreach performs", icon: BarChart3 },
];

export default function Dashboard() {
  const { stats, campaigns, autoResponders, speedToLead, range } = useLoaderData<typeof loader>();
  return (
    <div className="space-y-8">
      <section className="grid gap-4 sm:grid-cols-2 xl:grid-cols-4" aria-label="Quick actions">
        {QUICK_ACTIONS.map((a) => (
          <Link
            key={a.to}
            to={a.to}
            className={cx("rounded-lg border border-border bg-surface p-5 shadow-sm hover:border-primary", focusRing)}
          >
            <a.icon aria-hidden="true" className="mb-2 size-5 text-primary-text" />
            <h3 className="font-semibold">{a.title}</h3>
            <p className="mt-1 text-sm text-fg-muted">{a.text}</p>
          </Link>
        ))}
      </section>

      <section className="grid gap-4 sm:grid-cols-2 xl:grid-cols-4" aria-label="Statistics" data-testid="stat-cards">
        <StatCard label="Messages Sent" value={stats.messagesSent} icon={Send} />
        <StatCard label="Delivered" value={stats.delivered} icon={CheckCheck} />
        <StatCard label="Responses" value={stats.responses} icon={MessageSquareReply} />
        <StatCard label="Contacts" value={stats.contacts} icon={Users} />
      </section>

      <SpeedToLeadCard figures={speedToLead} range={range} hrefFor={(r) => `/?range=${r}`} />

      <div className="grid gap-6 lg:grid-cols-2">
        <Card title="Active Campaign Sequences" data-testid="dashboard-campaigns">
          <ItemList
            items={campaigns}
            empty={
              <EmptyState
                icon={Megaphone}
                title="No campaign sequences yet"
                action={<Button to="/campaigns/new">Create Your First Sequence</Button>}
              />
            }
            className="divide-y divide-border"
            itemClassName="flex items-start justify-between gap-3 py-3"
            itemTestId="dashboard-campaign"
          >
            {(c) => (
              <>
                <div className="min-w-0">
                  <p className="flex items-center gap-2 font-medium">
                    {c.status === "running" ? (
                      <span className="relative flex size-2.5" data-testid="pulse-dot" title="Running">
                        <span className="absolute inline-flex size-full animate-ping rounded-full bg-success-text opacity-60" />
                        <span className="relative inline-flex size-2.5 rounded-full bg-success-text" />
                      </span>
                    ) : null}
                    <span className="min-w-0 truncate">{c.name}</span>
                  </p>
                  {c.description ? <p className="truncate text-sm text-fg-muted">{c.description}</p> : null}
                  <p className="text-xs text-fg-subtle">
                    {formatCount(c.contactCount)} {c.contactCount === 1 ? "contact" : "contacts"}
                  </p>
                </div>
                <Badge tone={campaignStatusTone(c.status)}>{c.status}</Badge>
              </>
            )}
          </ItemList>
        </Card>

        <Card title="Smart Auto-Responders" data-testid="dashboard-responders">
          <ItemList
            items={autoResponders}
            empty={
              <EmptyState
                icon={Zap}
                title="No auto-responders configured"
                action={<Button to="/auto-responder">Setup Auto-Responders</Button>}
              />
            }
            className="divide-y divide-border"
            itemClassName="flex items-start justify-between gap-3 py-3"
          >
            {(r) => (
              <>
                <div className="min-w-0">
                  <p className="font-medium">{r.keyword}</p>
                  <p className="text-sm text-fg-muted">{r.responsePreview}</p>
                </div>
                <ActiveBadge active={r.isActive} />
              </>
            )}
          </ItemList>
        </Card>
      </div>

      <Card title="Getting Started">
        <ol className="grid gap-4 sm:grid-cols-3">
          {[
            ["Create campaign sequences", "Build multi-step SMS and email sequences with timed delays."],
            ["Test messages", "Preview and send test messages before they reach your leads."],
            ["Monitor performance", "Watch deliveries and responses as your campaigns run."],
          ].map(([title, text], i) => (
            <li key={title} className="flex gap-3">
              <span className="flex size-7 shrink-0 items-center justify-center rounded-full bg-primary-soft text-sm font-semibold text-primary-text">
                {i + 1}
              </span>
              <span>
                <span className="block font-medium">{title}</span>
                <span className="block text-sm text-fg-muted">{text}</span>
              </span>
            </li>
          ))}
        </ol>
      </Card>
    </div>
  );
}
