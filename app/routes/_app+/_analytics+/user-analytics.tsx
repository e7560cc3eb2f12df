import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import {
  isRouteErrorResponse,
  Link,
  Outlet,
  useLoaderData,
  useLocation,
  useNavigation,
  useRouteError,
} from "@remix-run/react";
import { Activity, Clock, ShieldAlert, UserPlus, Users } from "lucide-react";
import { requireUser } from "~/http/guard.server";
import { LocalTime } from "~/components/local-time";
import {
  ActiveBadge,
  Alert,
  Badge,
  Button,
  Card,
  EmptyState,
  PageHeader,
  Pager,
  Skeleton,
  StatCard,
  Table,
  Tabs,
  TBody,
  Td,
  THead,
} from "~/components/ui";
import { parseId } from "~/lib/ids";
import { isAppError } from "~/lib/app-error";
import { detailsText, displayName, USER_TABS, type UserTab } from "~/users/display";
import { getSpeedToLead, periodOf } from "~/analytics/get-speed-to-lead.server";
import { getShowRate } from "~/appointments/get-show-rate.server";
import { parseRange, type Range } from "~/analytics/rates";
import { SpeedToLeadCard } from "~/analytics/speed-to-lead-card";
import { repReplyFigures } from "~/users/rep-reply-figures.server";
import { activityTotal, getUserDetails, listActivity, listUsers, userTotals } from "~/users/manage-users.server";
import { formatCount } from "~/lib/format-count";

export const meta: MetaFunction = () => [{ title: "User Analytics — Helio" }];

export const RECENT_ACTIVITY = 50;

export async function loader(args: LoaderFunctionArgs) {
  const me = await requireUser(args, { role: "superuser" });
  const { db } = args.context;
  const url = new URL(args.request.url);
  const tab: UserTab = (USER_TABS as readonly string[]).includes(url.searchParams.get("tab") ?? "")
    ? (url.searchParams.get("tab") as UserTab)
    : "overview";
  const rawUser = url.searchParams.get("user");
  const userId = rawUser === null ? null : parseId(rawUser);
  const after = parseId(url.searchParams.get("after"));
  const [page, totals, totalActivity, recent] = await Promise.all([
    listUsers(db, { after }),
    userTotals(db),
    activityTotal(db),
    listActivity(db, { limit: RECENT_ACTIVITY }),
  ]);
  let selected: Awaited<ReturnType<typeof getUserDetails>> | "missing" | null = null;
  if (rawUser !== null) {
    selected =
      userId === null
        ? "missing"
        : await getUserDetails(db, userId).catch((e) =>
            isAppError(e) && e.code === "not_found" ? ("missing" as const) : Promise.reject(e),
          );
  }
  // Per rep (decision 037): the texts this user sent — their own, or their campaigns' steps (decision 027).
  const range = parseRange(url.searchParams.get("range"));
  const period = periodOf(args.context.clock(), range);
  const repId = selected && selected !== "missing" ? selected.user.id : null;
  const [speedToLead, rep, showRate] =
    repId !== null
      ? await Promise.all([
          getSpeedToLead(db, { ...period, userId: repId }),
          // Per rep (decision 050): conversations handled and replies sent in the same period.
          repReplyFigures(db, [repId], period).then((m) => m.get(repId) ?? null),
          // As a closer (decision 058): the appointments they sat, missed or lost in the same period.
          getShowRate(db, repId, period),
        ])
      : [null, null, null];
  return {
    range,
    speedToLead,
    rep,
    showRate,
    meId: me.id,
    tab,
    selectedParam: rawUser,
    users: page.items,
    nextCursor: page.nextCursor,
    stats: {
      total: totals.total,
      superusers: totals.superusers,
      normal: totals.total - totals.superusers,
      active: totals.active,
      totalActivity,
      recent: recent.length,
    },
    recent,
    selected,
  };
}

const href = (tab: UserTab, user?: string | null) =>
  `/user-analytics?tab=${tab}${user ? `&user=${encodeURIComponent(user)}` : ""}`;

export default function UserAnalytics() {
  const data = useLoaderData<typeof loader>();
  const navigation = useNavigation();
  const loading = navigation.state === "loading" && navigation.location?.pathname === "/user-analytics";
  const { stats } = data;
  return (
    <div className="space-y-6">
      <PageHeader
        title="User Analytics"
        description="Users, sign-ins and activity across the team."
        actions={
          <Button to={`/user-analytics/new?tab=${data.tab}`} icon={UserPlus}>
            Add User
          </Button>
        }
      />
      <div className="grid gap-4 sm:grid-cols-2 lg:grid-cols-4" data-testid="user-stats">
        <StatCard
          label="Total Users"
          value={stats.total}
          icon={Users}
          hint={`${stats.superusers} superuser${stats.superusers === 1 ? "" : "s"}, ${stats.normal} normal`}
        />
        <StatCard label="Active Users" value={stats.active} icon={Users} />
        <StatCard label="Total Activity" value={stats.totalActivity} icon={Activity} />
        <StatCard label="Recent Activity" value={stats.recent} icon={Clock} hint="Last 50 entries" />
      </div>
      <Tabs
        label="User analytics views"
        value={data.tab}
        items={[
          { value: "overview", label: "User Overview", href: href("overview", data.selectedParam) },
          { value: "logs", label: "Activity Logs", href: href("logs", data.selectedParam) },
          { value: "details", label: "User Details", href: href("details", data.selectedParam) },
        ]}
      >
        {loading ? (
          <div className="space-y-3" data-testid="user-analytics-loading">
            <span className="sr-only" role="status">
              Loading...
            </span>
            <Skeleton className="h-10 w-full" />
            <Skeleton className="h-10 w-full" />
            <Skeleton className="h-10 w-3/4" />
          </div>
        ) : data.tab === "overview" ? (
          <Overview />
        ) : data.tab === "logs" ? (
          <Logs />
        ) : (
          <Details />
        )}
      </Tabs>
      <Outlet />
    </div>
  );
}

function Overview() {
  const { users, meId, nextCursor } = useLoaderData<typeof loader>();
  const { search } = useLocation();
  return (
    <>
      <Table data-testid="users-table" caption="Users">
        <THead columns={["User", "Role", "Status", "Last Login", "Logins", "Activities"]} actions />
        <TBody>
          {users.map((u) => (
            <tr key={u.id} data-testid="user-row">
              <Td>
                <div className="font-medium">{displayName(u)}</div>
                <div className="text-xs text-fg-muted">{u.email}</div>
              </Td>
              <Td>
                <Badge tone={u.role === "superuser" ? "accent" : "neutral"}>{u.role}</Badge>
              </Td>
              <Td>
                <ActiveBadge active={u.isActive} inactiveTone="danger" />
              </Td>
              <Td>{u.lastLoginAt ? <LocalTime iso={u.lastLoginAt} pattern="MMM d, yyyy HH:mm" /> : "Never"}</Td>
              <Td>{formatCount(u.loginCount)}</Td>
              <Td>{formatCount(u.totalActivities)}</Td>
              <Td className="text-right whitespace-nowrap">
                <Button to={href("details", String(u.id))} variant="outline" size="sm">
                  View Details
                </Button>{" "}
                {u.id !== meId ? (
                  <Button
                    to={`/user-analytics/users/${u.id}?tab=overview`}
                    variant="ghost"
                    size="sm"
                    aria-label={`Manage ${displayName(u)}`}
                  >
                    Manage
                  </Button>
                ) : null}
              </Td>
            </tr>
          ))}
        </TBody>
      </Table>
      {/* Oldest first, forward only: "Next" pages on; the tab link starts over. */}
      <Pager search={search} prev={null} next={nextCursor} />
    </>
  );
}

function LogRows({
  entries,
  showUser,
}: {
  entries: ReturnType<typeof useLoaderData<typeof loader>>["recent"];
  showUser: boolean;
}) {
  return (
    <TBody>
      {entries.map((e) => (
        <tr key={e.id} data-testid="log-row">
          <Td className="whitespace-nowrap">
            <LocalTime iso={e.createdAt} pattern="MMM d, HH:mm:ss" />
          </Td>
          {showUser ? <Td>{e.userName ?? "Unknown User"}</Td> : null}
          <Td>
            <Badge tone="info">{e.action}</Badge>
          </Td>
          <Td>{e.ipAddress ?? "N/A"}</Td>
          <Td className="font-mono text-xs">{detailsText(e.details)}</Td>
        </tr>
      ))}
    </TBody>
  );
}

function Logs() {
  const { recent } = useLoaderData<typeof loader>();
  if (recent.length === 0) return <EmptyState title="No activity yet" />;
  return (
    <div className="max-h-[32rem] overflow-y-auto">
      <Table data-testid="logs-table" caption="The 50 most recent entries">
        <THead columns={["Time", "User", "Action", "IP Address", "Details"]} />
        <LogRows entries={recent} showUser />
      </Table>
    </div>
  );
}

function Details() {
  const { selected, speedToLead, rep, range, selectedParam, showRate } = useLoaderData<typeof loader>();
  if (selected === null) return <EmptyState title="Select a user to view details" />;
  if (selected === "missing") return <EmptyState title="User not found" />;
  const { user, activity, logins } = selected;
  return (
    <div className="grid gap-4 lg:grid-cols-2" data-testid="user-details">
      {speedToLead ? (
        <div className="lg:col-span-2">
          <SpeedToLeadCard
            title={`Speed to lead: ${displayName(user)}`}
            figures={speedToLead}
            rep={rep}
            range={range}
            hrefFor={(r: Range) => `${href("details", selectedParam)}&range=${r}`}
          />
        </div>
      ) : null}
      {showRate ? (
        <Card title={`Appointments as closer (last ${range} days)`} className="lg:col-span-2">
          <dl className="grid grid-cols-2 gap-x-6 gap-y-2 text-sm sm:grid-cols-4" data-testid="show-rate">
            <dt className="text-fg-muted">Show rate</dt>
            <dd className="font-medium">
              {showRate.showRate === null ? "—" : `${Math.round(showRate.showRate * 100)}%`}
            </dd>
            <dt className="text-fg-muted">Sat</dt>
            <dd>{showRate.byStatus.completed ?? 0}</dd>
            <dt className="text-fg-muted">No-show</dt>
            <dd>{showRate.byStatus.no_show ?? 0}</dd>
            <dt className="text-fg-muted">Cancelled</dt>
            <dd>{showRate.byStatus.cancelled ?? 0}</dd>
          </dl>
        </Card>
      ) : null}
      <Card title="Profile" className="lg:col-span-2">
        <dl className="grid gap-x-6 gap-y-2 text-sm sm:grid-cols-2">
          <dt className="text-fg-muted">Name</dt>
          <dd className="font-medium">{displayName(user)}</dd>
          <dt className="text-fg-muted">Email</dt>
          <dd>{user.email}</dd>
          <dt className="text-fg-muted">Role</dt>
          <dd>
            <Badge tone={user.role === "superuser" ? "accent" : "neutral"}>{user.role}</Badge>
          </dd>
          <dt className="text-fg-muted">Status</dt>
          <dd>
            <ActiveBadge active={user.isActive} inactiveTone="danger" />
          </dd>
          <dt className="text-fg-muted">Last Login</dt>
          <dd>
            {user.lastLoginAt ? <LocalTime iso={user.lastLoginAt} pattern="MMM d, yyyy HH:mm" /> : "Never logged in"}
          </dd>
          <dt className="text-fg-muted">Total Logins</dt>
          <dd>{formatCount(user.loginCount)}</dd>
          <dt className="text-fg-muted">Total Activities</dt>
          <dd>{formatCount(user.totalActivities)}</dd>
        </dl>
      </Card>
      <Card title="Recent Activities">
        {activity.length === 0 ? (
          <p className="text-sm text-fg-muted">No activity yet</p>
        ) : (
          <ul className="space-y-2 text-sm">
            {activity.map((a) => (
              <li key={a.id} className="flex flex-wrap items-center gap-2">
                <Badge tone="info">{a.action}</Badge>
                <LocalTime iso={a.createdAt} pattern="MMM d, HH:mm:ss" />
                <span className="font-mono text-xs text-fg-muted">{detailsText(a.details)}</span>
              </li>
            ))}
          </ul>
        )}
      </Card>
      <Card title="Login History">
        {logins.length === 0 ? (
          <p className="text-sm text-fg-muted">No sign-ins yet</p>
        ) : (
          <Table>
            <THead columns={["Date", "Time", "IP Address"]} />
            <TBody>
              {logins.map((l, i) => (
                <tr key={i}>
                  <Td>
                    <LocalTime iso={l.createdAt} pattern="MMM d, yyyy" />
                  </Td>
                  <Td>
                    <LocalTime iso={l.createdAt} pattern="HH:mm:ss" />
                  </Td>
                  <Td>{l.ipAddress ?? "N/A"}</Td>
                </tr>
              ))}
            </TBody>
          </Table>
        )}
      </Card>
    </div>
  );
}

/** A standard user reaches this screen only to be refused by the server (403): say so plainly. */
export function ErrorBoundary() {
  const error = useRouteError();
  if (isRouteErrorResponse(error) && error.status === 403) {
    return (
      <Alert tone="warning" data-testid="access-restricted">
        <div className="flex items-center gap-2">
          <ShieldAlert aria-hidden="true" className="size-4" />
          <strong>Access restricted</strong>
        </div>
        <p className="mt-1">User Analytics is available to superusers only.</p>
        <p className="mt-1">
          <Link to="/" className="underline">
            Back to the dashboard
          </Link>
        </p>
      </Alert>
    );
  }
  throw error;
}
