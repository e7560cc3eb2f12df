import type { LoaderFunctionArgs } from "@remix-run/cloudflare";
import { Form, Link, Outlet, useLoaderData, useLocation, useNavigation } from "@remix-run/react";
import { useEffect, useState } from "react";
import { publicUser, requireUser } from "~/auth/guard.server";
import { headerTitle, isActive, NAV_ITEMS } from "~/components/nav";
import { Spinner } from "~/components/spinner";

export async function loader(args: LoaderFunctionArgs) {
  // The server decides: no session → the login screen, whatever the path.
  const user = await requireUser(args);
  return { user: publicUser(user) };
}

export default function AppLayout() {
  const { user } = useLoaderData<typeof loader>();
  const location = useLocation();
  const navigation = useNavigation();
  const [open, setOpen] = useState(false);
  useEffect(() => setOpen(false), [location.pathname]);
  const name = `${user.firstName} ${user.lastName}`.trim() || user.email.split("@")[0];

  return (
    <div className="flex min-h-full">
      {/* Sidebar: static on large screens; on small ones it slides in (JS state, or #sidebar :target without JS). */}
      <aside
        id="sidebar"
        aria-label="Main navigation"
        className={`fixed inset-y-0 left-0 z-40 flex w-64 flex-col bg-slate-900 text-slate-100 transition-transform duration-200 lg:static lg:translate-x-0 ${
          open ? "translate-x-0" : "-translate-x-full"
        }`}
      >
        <div className="flex items-center justify-between px-5 py-5">
          <div>
            <Link to="/" className="text-xl font-bold text-amber-400">
              ☀ Helio
            </Link>
            <p className="text-xs text-slate-400">Connect with clarity</p>
          </div>
          <a
            href="#"
            onClick={(e) => {
              e.preventDefault();
              setOpen(false);
            }}
            className="rounded p-1 text-slate-400 hover:text-white lg:hidden"
            aria-label="Close menu"
          >
            ✕
          </a>
        </div>
        <nav className="flex-1 overflow-y-auto px-3">
          <ul className="space-y-1">
            {NAV_ITEMS.map((item) => {
              const active = isActive(item.to, location.pathname);
              return (
                <li key={item.to}>
                  <Link
                    to={item.to}
                    prefetch="intent"
                    aria-current={active ? "page" : undefined}
                    className={`flex items-center gap-3 rounded-md px-3 py-2 text-sm ${
                      active ? "bg-amber-500 font-semibold text-slate-900" : "text-slate-300 hover:bg-slate-800 hover:text-white"
                    }`}
                  >
                    <span aria-hidden="true" className="w-4 text-center">
                      {item.icon}
                    </span>
                    {item.label}
                  </Link>
                </li>
              );
            })}
          </ul>
        </nav>
        <div className="border-t border-slate-800 px-5 py-4">
          <p className="truncate text-sm font-medium" data-testid="user-name">
            {name}
          </p>
          <p className="text-xs tracking-wide text-amber-400" data-testid="user-role">
            {user.role.toUpperCase()}
          </p>
          <Form method="post" action="/logout" className="mt-3">
            <button type="submit" className="w-full rounded-md border border-slate-700 px-3 py-1.5 text-sm text-slate-200 hover:bg-slate-800">
              Logout
            </button>
          </Form>
        </div>
      </aside>
      {/* Overlay: closes the sidebar on small screens. */}
      <a
        href="#"
        aria-label="Close menu"
        onClick={(e) => {
          e.preventDefault();
          setOpen(false);
        }}
        className={`sidebar-overlay fixed inset-0 z-30 bg-black/40 lg:hidden ${open ? "block" : "hidden"}`}
      />

      <div className="flex min-w-0 flex-1 flex-col">
        <header className="sticky top-0 z-20 flex items-center justify-between border-b border-slate-200 bg-white px-4 py-3 lg:px-8">
          <div className="flex items-center gap-3">
            <a
              href="#sidebar"
              onClick={(e) => {
                e.preventDefault();
                setOpen(true);
              }}
              className="rounded p-1 text-slate-600 hover:bg-slate-100 lg:hidden"
              aria-label="Open menu"
            >
              ☰
            </a>
            <h1 className="text-lg font-semibold" data-testid="header-title">
              {headerTitle(location.pathname)}
            </h1>
          </div>
          <Link to="/test-smart-alerts" className="relative rounded-full p-2 text-slate-600 hover:bg-slate-100" aria-label="Notifications">
            <svg aria-hidden="true" viewBox="0 0 24 24" className="h-5 w-5" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" strokeLinejoin="round">
              <path d="M6 8a6 6 0 0 1 12 0c0 7 3 9 3 9H3s3-2 3-9" />
              <path d="M10.3 21a1.94 1.94 0 0 0 3.4 0" />
            </svg>
            <span className="absolute top-1.5 right-1.5 h-2 w-2 rounded-full bg-red-500" />
          </Link>
        </header>
        <main className="relative flex-1 p-4 lg:p-8">
          {navigation.state === "loading" ? (
            <div className="absolute inset-0 z-10 flex items-start justify-center bg-white/60 pt-24">
              <Spinner />
            </div>
          ) : null}
          <Outlet />
        </main>
        <footer className="border-t border-slate-200 px-4 py-3 text-center text-xs text-slate-500 lg:px-8">
          Helio · Solar Sales Communication Platform · Built for solar sales teams
        </footer>
      </div>
    </div>
  );
}
