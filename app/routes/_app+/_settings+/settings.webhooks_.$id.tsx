import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { ScrollText } from "lucide-react";
import { z } from "zod";
import { Alert, Badge, Card, PageHeader, PostButton, RowsCard, SecretOnce } from "~/components/ui";
import { formAction } from "~/http/form-action.server";
// Schema helpers from the module the browser bundle keeps: a .server module is empty there (decision 030).
import { intentError } from "~/http/form-schema";
import { requireUser } from "~/http/guard.server";
import { routeId, throwAsResponse } from "~/http/http.server";
import { redirectWithToast } from "~/http/toast.server";
import { zodId } from "~/lib/ids";
import {
  loadWebhookLog,
  replayWebhookDelivery,
  rotateWebhookSecret,
  sendTestWebhook,
} from "~/webhooks/manage-webhook-subscriptions.server";
import { WebhookStatus } from "~/webhooks/webhook-status";

export const meta: MetaFunction = () => [{ title: "Webhook delivery log — Helio" }];

export async function loader(args: LoaderFunctionArgs) {
  await requireUser(args, { role: "superuser" });
  const id = routeId(args.params.id, "Webhook not found");
  try {
    return await loadWebhookLog(args.context.db, id);
  } catch (e) {
    throwAsResponse(e);
  }
}

const logForm = z.discriminatedUnion(
  "intent",
  [
    z.object({ intent: z.literal("test") }),
    z.object({ intent: z.literal("rotate") }),
    z.object({ intent: z.literal("replay"), deliveryId: zodId("Delivery not found") }),
  ],
  intentError(),
);

export async function action(args: ActionFunctionArgs) {
  const id = routeId(args.params.id, "Webhook not found");
  return formAction(
    args,
    { schema: logForm, role: "superuser", title: "Error with webhook" },
    async (input, { actor }) => {
      const here = `/settings/webhooks/${id}`;
      if (input.intent === "rotate") {
        // The new secret is answered once, as this action's data.
        const rotated = await rotateWebhookSecret(args.context.db, id, actor, args.context.clock());
        return { ok: true as const, secret: rotated.secret };
      }
      if (input.intent === "test") {
        await sendTestWebhook(args.context.domain(), id, actor);
        return redirectWithToast(args.context, here, { title: "Test event queued" });
      }
      await replayWebhookDelivery(args.context.domain(), input.deliveryId, actor);
      return redirectWithToast(args.context, here, { title: "Delivery queued again" });
    },
  );
}

const STATUS_TONE = { delivered: "success", retrying: "warning", pending: "neutral", failed: "danger" } as const;

export default function WebhookLog() {
  const { subscription: s, deliveries } = useLoaderData<typeof loader>();
  const reply = useActionData<typeof action>();
  const pending = useNavigation().state === "submitting";
  const failure = reply && "ok" in reply && reply.ok === false ? reply : undefined;
  const secret = reply && "secret" in reply ? reply.secret : undefined;
  return (
    <div className="space-y-6">
      <PageHeader title="Webhook delivery log" description={s.url} />
      <p className="text-sm">
        <Link to="/settings/webhooks" className="underline">
          All webhooks
        </Link>
      </p>
      {failure ? <Alert tone="danger">{failure.message}</Alert> : null}
      {secret ? (
        <SecretOnce
          data-testid="webhook-secret"
          title="New signing secret. Copy it now: it is not shown again. The old one no longer works."
          secret={secret}
        />
      ) : null}
      <Card title="Subscription">
        <div className="space-y-3">
          <WebhookStatus subscription={s} />
          <p className="text-sm text-fg-muted">At most {s.maxPerHour} deliveries an hour.</p>
          <div className="flex flex-wrap gap-2">
            <PostButton intent="test" variant="primary" disabled={pending || !s.enabled}>
              Send test event
            </PostButton>
            <PostButton intent="rotate" disabled={pending}>
              Rotate secret
            </PostButton>
          </div>
        </div>
      </Card>
      <RowsCard
        title="Deliveries"
        items={deliveries}
        data-testid="webhook-deliveries"
        itemTestId="webhook-delivery"
        empty={{ icon: ScrollText, title: "No deliveries yet", description: "Send a test event to try it." }}
        bodyClassName="text-sm"
        actions={(d) => (
          <PostButton intent="replay" fields={{ deliveryId: d.id }} disabled={pending || !s.enabled} of={d.eventId}>
            Replay
          </PostButton>
        )}
      >
        {(d) => (
          <>
            <div className="flex flex-wrap items-center gap-2">
              <Badge tone={STATUS_TONE[d.status]}>{d.status}</Badge>
              <span className="font-medium">{d.eventType}</span>
              <span className="break-all text-fg-muted">{d.eventId}</span>
            </div>
            <p className="text-fg-muted">
              Attempt {d.attempts}
              {d.lastStatusCode ? ` · HTTP ${d.lastStatusCode}` : ""}
              {d.lastDurationMs !== null ? ` · ${d.lastDurationMs} ms` : ""}
              {d.lastAttemptAt
                ? ` · ${new Date(d.lastAttemptAt).toISOString().replace("T", " ").slice(0, 19)} UTC`
                : ""}
              {d.nextAttemptAt
                ? ` · next try ${new Date(d.nextAttemptAt).toISOString().replace("T", " ").slice(0, 16)} UTC`
                : ""}
            </p>
            {d.lastError ? <p className="break-words text-danger">{d.lastError}</p> : null}
            {d.lastResponse ? (
              <pre className="max-w-full overflow-x-auto whitespace-pre-wrap break-all rounded bg-muted p-2 text-xs">
                {d.lastResponse}
              </pre>
            ) : null}
          </>
        )}
      </RowsCard>
    </div>
  );
}
