import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { useLoaderData } from "@remix-run/react";
import { requireUser } from "~/http/guard.server";
import { LocalTime } from "~/components/local-time";
import { Card, LiveRefresh, PageHeader, StatCard, TextLink } from "~/components/ui";
import { routeId, throwAsResponse } from "~/http/http.server";
import { getSendProgress, SEND_NOT_FOUND } from "~/messaging/get-send-progress.server";
import { formatCount } from "~/lib/format-count";

export const meta: MetaFunction = () => [{ title: "Send progress — Helio" }];

export async function loader(args: LoaderFunctionArgs) {
  await requireUser(args);
  const id = routeId(args.params.id, SEND_NOT_FOUND);
  try {
    return await getSendProgress(args.context.db, id);
  } catch (err) {
    throwAsResponse(err);
  }
}

export default function SendProgressPage() {
  const p = useLoaderData<typeof loader>();
  const c = p.counts;
  return (
    <div className="space-y-4" data-testid="send-progress">
      <LiveRefresh active={!p.done} seconds={2} />
      <PageHeader
        title={`Broadcast #${p.id}`}
        description={
          <p>
            {p.type === "email" ? "Email" : "SMS"} to {formatCount(p.recipients)} recipients · created{" "}
            <LocalTime iso={p.createdAt} />
            {p.scheduledAt ? (
              <>
                {" "}
                · scheduled for <LocalTime iso={p.scheduledAt} />
              </>
            ) : null}
          </p>
        }
        actions={<TextLink to="/testing?tab=broadcast">Back to the playground</TextLink>}
      />
      <div className="grid grid-cols-2 gap-3 md:grid-cols-6" data-testid="progress-counts">
        <StatCard label="Waiting" value={c.waiting} />
        <StatCard label="Queued" value={c.queued} />
        <StatCard label="Sent" value={c.sent} />
        <StatCard label="Delivered" value={c.delivered} />
        <StatCard label="Failed" value={c.failed} />
        <StatCard label="Skipped" value={c.skipped} />
      </div>
      <p className="text-sm text-fg-muted" role="status" data-testid="progress-state">
        {p.done ? "All messages processed." : "Sending… this page updates by itself."}
      </p>
      {p.reasons.length ? (
        <Card title="Failed and skipped, by reason">
          <ul className="space-y-1 text-sm" data-testid="progress-reasons">
            {p.reasons.map((r) => (
              <li key={`${r.status}:${r.reason}`}>
                {r.status === "skipped" ? "Skipped" : "Failed"}: {r.reason} — {formatCount(r.count)}
              </li>
            ))}
          </ul>
        </Card>
      ) : null}
      <Card title="Message">
        {p.subject ? <p className="font-medium">{p.subject}</p> : null}
        <p className="text-sm whitespace-pre-wrap">{p.content}</p>
      </Card>
    </div>
  );
}
