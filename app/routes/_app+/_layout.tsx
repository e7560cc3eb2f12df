import type { LoaderFunctionArgs } from "@remix-run/cloudflare";
import { Form, Link, Outlet, useLoaderData, useLocation, useNavigation } from "@remix-run/react";
import { Bell, LogOut, Menu, Sun, X } from "lucide-react";
import { useState, type MouseEvent } from "react";
import { BELL_COUNT_CAP } from "~/responders/alerts/bell";
import { loadSidebarCounts } from "~/http/load-sidebar-counts.server";
import { UNREAD_COUNT_CAP } from "~/conversations/queue-views";
import { publicUser, requireUser } from "~/http/guard.server";
import { headerTitle, isActive, MORE_NAV_ITEMS, NAV_ITEMS } from "~/components/nav";
import { cx, focusRing, Spinner, TooltipProvider } from "~/components/ui";

export async function loader(args: LoaderFunctionArgs) {
  // The server decides: no session → the login screen, whatever the path; a one-time password → change it first.
  const user = await requireUser(args);
  // The bell: unacknowledged smart alerts, an indexed read of at most BELL_COUNT_CAP + 1 rows (app/responders/alerts).
  // The unread conversations of the user's queue: two bounded index walks (decision 046).
  const { unacknowledged, unread } = await loadSidebarCounts(args.context.db, user.id, args.context.clock());
  return { user: publicUser(user), unacknowledged, unread };
}

export default function AppLayout() {
  const { user, unacknowledged, unread } = useLoaderData<typeof loader>();
  const location = useLocation();
  const navigation = useNavigation();
  // Open "at" a path: any navigation closes the menu, no effect needed.
  const [openAt, setOpenAt] = useState<string | null>(null);
  const open = openAt === location.pathname;
  const name = `${user.firstName} ${user.lastName}`.trim() || user.email.split("@")[0];
  // The menu links work by fragment without JS (#sidebar :target opens, #content closes); with JS they toggle state.
  const toggle = (next: boolean) => (e: MouseEvent) => {
    e.preventDefault();
    setOpenAt(next ? location.pathname : null);
  };

  return (
    <TooltipProvider>
      <div className="flex min-h-full">
        {/* Sidebar: static on large screens; on small ones it slides in (JS state, or #sidebar :target without JS). */}
        <aside
          id="sidebar"
          aria-label="Main navigation"
          className={cx(
            // Printed pages (the TCPA packet, reports) carry the content only.
            "fixed inset-y-0 left-0 z-40 flex w-64 flex-col bg-sidebar text-sidebar-fg transition-transform duration-200 lg:static lg:translate-x-0 print:hidden",
            open ? "translate-x-0" : "-translate-x-full",
          )}
        >
          <div className="flex items-center justify-between px-5 py-5">
            <div>
              <Link
                to="/"
                className={cx("flex items-center gap-2 rounded text-xl font-bold text-sidebar-accent", focusRing)}
              >
                <Sun aria-hidden="true" className="size-5" /> Helio
              </Link>
              <p className="text-xs text-sidebar-muted">Connect with clarity</p>
            </div>
            <MenuLink open={false} onClick={toggle(false)} className="text-sidebar-muted hover:text-sidebar-fg" />
          </div>
          <nav className="flex-1 overflow-y-auto px-3">
            <NavList items={NAV_ITEMS} pathname={location.pathname} />
            <p className="mt-4 mb-1 px-3 text-xs font-semibold tracking-wide text-sidebar-muted uppercase">More</p>
            <NavList
              items={MORE_NAV_ITEMS.filter((i) => !i.superuserOnly || user.role === "superuser")}
              pathname={location.pathname}
              counts={{ "/messages/conversations": { n: unread, cap: UNREAD_COUNT_CAP, of: "unread" } }}
            />
          </nav>
          <div className="border-t border-sidebar-border px-5 py-4">
            <Link
              to="/account"
              className={cx("block truncate rounded text-sm font-medium hover:underline", focusRing)}
              data-testid="user-name"
            >
              {name}
            </Link>
            <p className="text-xs tracking-wide text-sidebar-accent" data-testid="user-role">
              {user.role.toUpperCase()}
            </p>
            <Form method="post" action="/logout" className="mt-3">
              <button
                type="submit"
                className={cx(
                  "flex w-full items-center justify-center gap-2 rounded-md border border-sidebar-border px-3 py-1.5 text-sm text-sidebar-fg hover:bg-sidebar-hover",
                  focusRing,
                )}
              >
                <LogOut aria-hidden="true" className="size-4" />
                Logout
              </button>
            </Form>
          </div>
        </aside>
        {/* Overlay: closes the sidebar on small screens. */}
        <a
          href="#content"
          aria-label="Close menu"
          onClick={toggle(false)}
          className={cx("sidebar-overlay fixed inset-0 z-30 bg-overlay lg:hidden", open ? "block" : "hidden")}
        />

        <div className="flex min-w-0 flex-1 flex-col">
          <header className="sticky top-0 z-20 flex items-center justify-between border-b border-border bg-surface px-4 py-3 lg:px-8 print:hidden">
            <div className="flex items-center gap-3">
              <MenuLink open onClick={toggle(true)} className="text-fg-muted hover:bg-muted" />
              <h1 className="text-lg font-semibold" data-testid="header-title">
                {headerTitle(location.pathname)}
              </h1>
            </div>
            <Link
              to="/alerts"
              className={cx("relative rounded-full p-2 text-fg-muted hover:bg-muted", focusRing)}
              aria-label={
                unacknowledged
                  ? `Notifications: ${unacknowledged > BELL_COUNT_CAP ? `${BELL_COUNT_CAP}+` : unacknowledged} unacknowledged alerts`
                  : "Notifications"
              }
              data-testid="bell"
            >
              <Bell aria-hidden="true" className="size-5" />
              {unacknowledged ? (
                <span data-testid="bell-dot" className="absolute top-1.5 right-1.5 size-2 rounded-full bg-danger" />
              ) : null}
            </Link>
          </header>
          <main id="content" className="relative flex-1 p-4 lg:p-8">
            {navigation.state === "loading" ? (
              <div className="absolute inset-0 z-10 flex items-start justify-center bg-surface/60 pt-24">
                <Spinner />
              </div>
            ) : null}
            <Outlet />
          </main>
          <footer className="border-t border-border px-4 py-3 text-center text-xs text-fg-subtle lg:px-8">
            Helio · Solar Sales Communication Platform · Built for solar sales teams
          </footer>
        </div>
      </div>
    </TooltipProvider>
  );
}

/** The phone's menu button: a fragment link (#sidebar opens, #content closes) that JS turns into a toggle. */
function MenuLink({
  open,
  onClick,
  className,
}: {
  open: boolean;
  onClick: (e: MouseEvent) => void;
  className: string;
}) {
  const Icon = open ? Menu : X;
  return (
    <a
      href={open ? "#sidebar" : "#content"}
      onClick={onClick}
      className={cx("rounded p-1 lg:hidden", className, focusRing)}
      aria-label={open ? "Open menu" : "Close menu"}
    >
      <Icon aria-hidden="true" className="size-5" />
    </a>
  );
}

function NavList({
  items,
  pathname,
  counts = {},
}: {
  items: readonly { to: string; label: string; icon: (typeof NAV_ITEMS)[number]["icon"] }[];
  pathname: string;
  /** A count beside an item (shown as "99+" above its cap; nothing at 0). */
  counts?: Record<string, { n: number; cap: number; of: string }>;
}) {
  return (
    <ul className="space-y-1">
      {items.map((item) => {
        const active = isActive(item.to, pathname);
        const count = counts[item.to];
        const shown = count && count.n > 0 ? (count.n > count.cap ? `${count.cap}+` : String(count.n)) : null;
        return (
          <li key={item.to}>
            <Link
              to={item.to}
              prefetch="intent"
              aria-current={active ? "page" : undefined}
              className={cx(
                "flex items-center gap-3 rounded-md px-3 py-2 text-sm",
                focusRing,
                active ? "bg-primary font-semibold text-primary-fg" : "text-sidebar-fg hover:bg-sidebar-hover",
              )}
            >
              <span aria-hidden="true" className="flex w-4 justify-center">
                <item.icon className="size-4" />
              </span>
              {item.label}
              {shown ? (
                <span
                  className="ml-auto rounded-full bg-danger-soft px-2 text-xs font-semibold text-danger-text"
                  data-testid="nav-count"
                >
                  {shown}
                  <span className="sr-only"> {count!.of}</span>
                </span>
              ) : null}
            </Link>
          </li>
        );
      })}
    </ul>
  );
}
