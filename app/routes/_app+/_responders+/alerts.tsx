import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { Form, useLoaderData } from "@remix-run/react";
import { BellOff, Check } from "lucide-react";
import { z } from "zod";
import { acknowledgeAlert } from "~/responders/alerts/acknowledge-alert.server";
import { listAlerts } from "~/responders/alerts/list-alerts.server";
import { markAlert } from "~/responders/alerts/mark-alert.server";
import { ownerRoutingNote } from "~/responders/alerts/owner-routing-note";
import { requireUser } from "~/http/guard.server";
import {
  Badge,
  Button,
  Card,
  EmptyState,
  PageHeader,
  Pager,
  PriorityBadge,
  TextLink,
  VerdictButtons,
} from "~/components/ui";
import { formAction } from "~/http/form-action.server";
import { zodId } from "~/lib/ids";
import { redirectWithToast } from "~/http/toast.server";

export const meta: MetaFunction = () => [{ title: "Alerts — Helio" }];

const query = z.object({
  status: z.enum(["unacknowledged", "acknowledged", "all"]).catch("unacknowledged"),
  after: zodId().optional().catch(undefined),
});

/** The bell's list: smart alerts, unacknowledged first view; keyset paged. */
export async function loader(args: LoaderFunctionArgs) {
  await requireUser(args);
  const q = query.parse(Object.fromEntries(new URL(args.request.url).searchParams));
  const page = await listAlerts(args.context.db, {
    status: q.status === "all" ? undefined : q.status,
    after: q.after,
    limit: 25,
  });
  return { ...page, status: q.status };
}

const form = z.object({ intent: z.enum(["acknowledge", "right", "wrong"]), id: zodId() });

/** Acknowledge an alert, or mark its classification right or wrong (which acknowledges it too). */
export async function action(args: ActionFunctionArgs) {
  const { request, context } = args;
  return formAction(args, { schema: form, title: "Failed to update alert" }, async (input, { user }) => {
    if (input.intent === "acknowledge") await acknowledgeAlert(context.db, input.id, user.id, context.clock());
    else await markAlert(context.db, input.id, input.intent, user.id, context.clock());
    const title = input.intent === "acknowledge" ? "Alert acknowledged" : `Marked ${input.intent}`;
    return redirectWithToast(context, `/alerts${new URL(request.url).search}`, { title });
  });
}

export default function Alerts() {
  const { alerts, nextCursor, status } = useLoaderData<typeof loader>();
  const tab = (s: string, label: string) => (
    <TextLink
      to={`/alerts?status=${s}`}
      aria-current={status === s ? "page" : undefined}
      className={status === s ? "font-semibold" : undefined}
    >
      {label}
    </TextLink>
  );
  return (
    <div className="space-y-6">
      <PageHeader
        title="Alerts"
        description={
          <span className="flex gap-3">
            {tab("unacknowledged", "Unacknowledged")} {tab("acknowledged", "Acknowledged")} {tab("all", "All")}
          </span>
        }
        actions={
          <Button to="/smart-alerts" variant="secondary">
            Smart Alerts
          </Button>
        }
      />
      {alerts.length === 0 ? (
        <Card>
          <EmptyState
            icon={BellOff}
            title="No alerts"
            description="Replies that match an alert profile or keyword bank show here."
            data-testid="alerts-empty"
          />
        </Card>
      ) : (
        <ul className="space-y-3" data-testid="alerts-list">
          {alerts.map((a) => {
            const who = [a.firstName, a.lastName].filter(Boolean).join(" ") || a.phone || "Test contact";
            const routing = ownerRoutingNote(a);
            return (
              <li key={a.id} data-testid="alert-item">
                <Card
                  title={
                    <span className="flex flex-wrap items-center gap-2">
                      <PriorityBadge priority={a.priority} />
                      <span>{a.category}</span>
                      {a.isTest ? <Badge tone="neutral">test</Badge> : null}
                      {a.escalatedAt ? <Badge tone="warning">escalated</Badge> : null}
                    </span>
                  }
                  description={`${who} · ${new Date(a.createdAt).toISOString().slice(0, 16).replace("T", " ")} UTC`}
                >
                  <p className="whitespace-pre-wrap text-sm">{a.content}</p>
                  {routing ? (
                    <p className="mt-2 text-xs text-fg-muted" data-testid="alert-routing">
                      {routing}
                    </p>
                  ) : null}
                  <p className="mt-2 text-xs text-fg-muted">
                    {a.intent
                      ? `Classifier: ${a.intent}, ${a.sentiment}, ${a.confidence}% confidence`
                      : "Not classified"}
                    {a.verdict ? ` · marked ${a.verdict}` : ""}
                    {a.contactId ? (
                      <>
                        {" · "}
                        <TextLink to={`/contacts/${a.contactId}`}>Open contact</TextLink>
                      </>
                    ) : null}
                  </p>
                  <Form method="post" className="mt-3 flex flex-wrap gap-2">
                    <input type="hidden" name="id" value={a.id} />
                    {a.status === "unacknowledged" ? (
                      <Button type="submit" name="intent" value="acknowledge" size="sm" icon={Check}>
                        Acknowledge
                      </Button>
                    ) : (
                      <Badge tone="success">acknowledged</Badge>
                    )}
                    {a.intent ? <VerdictButtons name="intent" verdict={a.verdict} /> : null}
                  </Form>
                </Card>
              </li>
            );
          })}
        </ul>
      )}
      <Pager search={`?status=${status}`} prev={null} next={nextCursor} />
    </div>
  );
}
