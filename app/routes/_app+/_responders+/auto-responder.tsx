import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { Outlet, useLoaderData } from "@remix-run/react";
import { Bot, Clock, MessageSquareReply, Pencil, Plus, ShieldAlert, Siren, Trash2 } from "lucide-react";
import { formatMs } from "~/responders/alerts/format-ms";
import { getAiAnalytics } from "~/responders/alerts/get-ai-analytics.server";
import { requireUser } from "~/http/guard.server";
import { readCapCounters } from "~/caps/read-cap-counters.server";
import {
  Badge,
  Button,
  Card,
  EmptyState,
  PageHeader,
  StatCard,
  Switch,
  Table,
  TBody,
  Td,
  THead,
} from "~/components/ui";
import { AppError } from "~/lib/app-error";
import { formAction } from "~/http/form-action.server";
import { z } from "zod";
import { parseId } from "~/lib/ids";
import { listResponders } from "~/responders/list-responders.server";
import { updateResponder } from "~/responders/update-responder.server";
import { RESPONDER_NOT_FOUND, RESPONDER_TOASTS } from "~/responders/responder-schema";
import { redirectWithToast } from "~/http/toast.server";
import { formatCount } from "~/lib/format-count";

export const meta: MetaFunction = () => [{ title: "Auto-Responder — Helio" }];

export async function loader(args: LoaderFunctionArgs) {
  await requireUser(args);
  const now = args.context.clock();
  const [responders, figures, caps] = await Promise.all([
    listResponders(args.context.db),
    getAiAnalytics(args.context.db, now),
    readCapCounters(args.context.db, now),
  ]);
  return {
    responders: responders.map((r) => ({
      id: r.id,
      name: r.name,
      triggerType: r.triggerType,
      category: r.category,
      keywords: r.keywords,
      isActive: r.isActive,
      responseCount: r.responseCount,
      primary: String((r.responses as { primary?: string } | null)?.primary ?? ""),
    })),
    figures,
    guard: { held: caps.held.auto_reply, draftsRefused: caps.held.ai_draft, aiBudget: caps.aiBudget },
  };
}

// An id that is not one is the responder that cannot be found (404), as for a deleted one.
const toggleSchema = z.object({ id: z.unknown(), isActive: z.string().optional() });

/** The active switch (a form post without JS): `isActive=<new value>` for responder `id`. */
export async function action(args: ActionFunctionArgs) {
  const { context } = args;
  return formAction(args, { schema: toggleSchema, title: RESPONDER_TOASTS.update }, async (input) => {
    const id = parseId(input.id);
    if (id === null) throw new AppError("not_found", RESPONDER_NOT_FOUND);
    const isActive = input.isActive === "true";
    await updateResponder(context.db, id, { isActive }, context.clock());
    return redirectWithToast(context, "/auto-responder", {
      title: isActive ? "Auto-responder activated" : "Auto-responder paused",
    });
  });
}

/** The SPEC cuts the response preview at 50 characters. */
const preview = (s: string) => (s.length > 50 ? `${s.slice(0, 50)}…` : s);

export default function AutoResponder() {
  const { responders, figures, guard } = useLoaderData<typeof loader>();
  return (
    <div className="space-y-6">
      <PageHeader
        title="Auto-Responder"
        description="Answer replies automatically, and hand the right ones to a person."
        actions={
          <Button to="/auto-responder/new" preventScrollReset icon={Plus}>
            Create Responder
          </Button>
        }
      />
      <div className="grid gap-4 sm:grid-cols-2 lg:grid-cols-4" data-testid="responder-stats">
        <StatCard label="Active Responders" value={figures.activeResponders} icon={Bot} />
        <StatCard label="Replies Sent Today" value={figures.repliesToday} icon={MessageSquareReply} />
        <StatCard label="Avg Response Time" value={formatMs(figures.averageAutoResponseMs)} icon={Clock} />
        <StatCard label="Escalations (30 days)" value={figures.escalations} icon={Siren} />
      </div>
      {/* The loop guard (decision 021): what it held today, so a quiet responder is explained, not mysterious. */}
      <p className="text-sm text-fg-muted" data-testid="loop-guard-held">
        <ShieldAlert aria-hidden="true" className="mr-1 inline size-4" />
        <strong>{formatCount(guard.held)}</strong> {guard.held === 1 ? "reply" : "replies"} held by the loop guard today
        {guard.draftsRefused
          ? ` · ${formatCount(guard.draftsRefused)} AI drafts refused for contact details nobody wrote`
          : ""}{" "}
        · AI budget {formatCount(guard.aiBudget.used)} of {formatCount(guard.aiBudget.limit)} model calls used today
      </p>
      <Card title="Responders">
        {responders.length === 0 ? (
          <EmptyState
            icon={Bot}
            title="No auto-responders yet"
            description="Create one to answer replies by keyword, intent, sentiment or time."
          />
        ) : (
          <Table data-testid="responders-table">
            <THead columns={["Name", "Trigger", "Keywords", "Response", "Replies", "Active"]} actions />
            <TBody>
              {responders.map((r) => (
                <tr key={r.id} data-testid="responder-row">
                  <Td className="font-medium">{r.name}</Td>
                  <Td>
                    <Badge tone="info">{r.triggerType.replace(/_/g, " ")}</Badge>
                  </Td>
                  <Td>{r.keywords.join(", ")}</Td>
                  <Td className="text-fg-muted">{preview(r.primary)}</Td>
                  <Td>{formatCount(r.responseCount)}</Td>
                  <Td>
                    <Switch
                      name="isActive"
                      checked={r.isActive}
                      label={`Active: ${r.name}`}
                      fields={{ id: String(r.id) }}
                    />
                  </Td>
                  <Td className="whitespace-nowrap text-right">
                    <Button
                      to={`/auto-responder/${r.id}/edit`}
                      preventScrollReset
                      variant="ghost"
                      size="icon"
                      icon={Pencil}
                      aria-label={`Edit ${r.name}`}
                    />
                    <Button
                      to={`/auto-responder/${r.id}/delete`}
                      preventScrollReset
                      variant="ghost"
                      size="icon"
                      icon={Trash2}
                      aria-label={`Delete ${r.name}`}
                    />
                  </Td>
                </tr>
              ))}
            </TBody>
          </Table>
        )}
      </Card>
      <Outlet />
    </div>
  );
}
