import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { Link } from "@remix-run/react";
import { cx, focusRing } from "~/components/ui";
import { requireUser } from "~/auth/guard.server";

export const meta: MetaFunction = () => [{ title: "Dashboard — Helio" }];

export async function loader(args: LoaderFunctionArgs) {
  await requireUser(args);
  return null;
}

const QUICK_ACTIONS = [
  { to: "/campaigns", title: "Create Sequence", text: "Build a multi-step campaign" },
  { to: "/testing", title: "Test Messages", text: "Try SMS and email before sending" },
  { to: "/contacts", title: "Manage Contacts", text: "Add, import and organise leads" },
  { to: "/analytics", title: "View Analytics", text: "See how your outreach performs" },
];

export default function Dashboard() {
  return (
    <div className="space-y-8">
      <section className="grid gap-4 sm:grid-cols-2 xl:grid-cols-4">
        {QUICK_ACTIONS.map((a) => (
          <Link key={a.to} to={a.to} className={cx("rounded-lg border border-border bg-surface p-5 shadow-sm hover:border-primary", focusRing)}>
            <h3 className="font-semibold">{a.title}</h3>
            <p className="mt-1 text-sm text-fg-muted">{a.text}</p>
          </Link>
        ))}
      </section>
      <section className="rounded-lg border border-border bg-surface p-6">
        <h2 className="text-lg font-semibold">Getting Started</h2>
        <ol className="mt-3 list-decimal space-y-1 pl-5 text-sm text-fg-muted">
          <li>Create campaign sequences</li>
          <li>Test messages</li>
          <li>Monitor performance</li>
        </ol>
      </section>
    </div>
  );
}
