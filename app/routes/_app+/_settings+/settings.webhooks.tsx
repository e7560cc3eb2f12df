import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { Webhook } from "lucide-react";
import { z } from "zod";
import { failureByIntent, fieldErrorsOf, fieldProps, formErrorOf, postedValues } from "~/components/form-failure";
import { CheckboxList, CreateFormCard, Field, PageHeader, PostButton, RowsCard, SecretOnce } from "~/components/ui";
import { WEBHOOK_EVENTS } from "~/db/schema";
import { formAction } from "~/http/form-action.server";
// Schema helpers from the module the browser bundle keeps: a .server module is empty there (decision 030).
import { asList, intentError, withDefaults } from "~/http/form-schema";
import { requireUser } from "~/http/guard.server";
import { redirectWithToast } from "~/http/toast.server";
import { zodId } from "~/lib/ids";
import {
  createWebhookSubscription,
  listWebhookSubscriptions,
  setWebhookEnabled,
} from "~/webhooks/manage-webhook-subscriptions.server";
import { webhookSubscriptionInput } from "~/webhooks/webhook-subscription-input";
import { WebhookStatus } from "~/webhooks/webhook-status";
import { webhooksAllowPrivate } from "~/wiring/app-deps.server";

export const meta: MetaFunction = () => [{ title: "Webhooks — Helio" }];

// Superusers only (decision 036): a subscription sends homeowners' replies and opt-outs to another system.
export async function loader(args: LoaderFunctionArgs) {
  await requireUser(args, { role: "superuser" });
  return { subscriptions: await listWebhookSubscriptions(args.context.db) };
}

const subscriptionId = zodId("Webhook not found");
const webhookForm = withDefaults(
  { url: "", description: "" },
  z.discriminatedUnion(
    "intent",
    [
      webhookSubscriptionInput.extend({
        intent: z.literal("create"),
        events: asList(webhookSubscriptionInput.shape.events),
      }),
      z.object({ intent: z.literal("enable"), id: subscriptionId }),
      z.object({ intent: z.literal("disable"), id: subscriptionId }),
    ],
    intentError(),
  ),
);

export async function action(args: ActionFunctionArgs) {
  return formAction(
    args,
    { schema: webhookForm, role: "superuser", title: "Error saving webhook" },
    async (input, { actor }) => {
      const { db } = args.context;
      const now = args.context.clock();
      if (input.intent === "create") {
        // The secret is answered once, as this action's data (no redirect, so no cookie or URL ever carries it).
        const created = await createWebhookSubscription(db, input, actor, now, {
          allowPrivate: webhooksAllowPrivate(args.context.cloudflare.env),
        });
        return { ok: true as const, created };
      }
      await setWebhookEnabled(db, input.id, input.intent === "enable", actor, now);
      return redirectWithToast(args.context, "/settings/webhooks", {
        title: input.intent === "enable" ? "Webhook turned on" : "Webhook turned off",
      });
    },
  );
}

const EVENT_HINTS: Record<(typeof WEBHOOK_EVENTS)[number], string> = {
  "message.received": "A homeowner replied",
  "contact.opted_out": "STOP, plain words, the classifier, a carrier opt-out or unsubscribe",
  "alert.created": "A smart alert fired",
  "campaign.completed": "A campaign finished",
  "lead.created": "A lead arrived through the lead webhook",
  "message.failed": "A message failed for good",
};

export default function Webhooks() {
  const { subscriptions } = useLoaderData<typeof loader>();
  const reply = useActionData<typeof action>();
  const pending = useNavigation().state === "submitting";
  const created = reply && "created" in reply ? reply.created : undefined;
  const { form: creating, other: rowFailure } = failureByIntent(reply, "create");
  const formError = formErrorOf(creating, ["url", "description", "events", "maxPerHour"]);
  return (
    <div className="space-y-6">
      <PageHeader
        title="Webhooks"
        description="Helio POSTs signed JSON to your system when these things happen. Each delivery is retried for about 11 hours; a receiver that keeps failing is turned off, and you are emailed."
      />
      {created ? (
        <SecretOnce
          data-testid="webhook-secret"
          title="Webhook created. Copy its signing secret now: it is not shown again."
          secret={created.secret}
        >
          <p className="mt-2 text-sm">
            Check each request&apos;s <code>Helio-Signature</code> header: <code>t=…,v1=…</code>, where v1 is the hex
            HMAC-SHA256 of <code>t.body</code> with this secret.{" "}
            <Link className="underline" to={`/settings/webhooks/${created.id}`}>
              Open its delivery log
            </Link>
          </p>
        </SecretOnce>
      ) : null}
      <CreateFormCard
        title="New webhook"
        data-testid="webhook-form"
        error={formError}
        submitLabel="Create webhook"
        pendingLabel="Saving..."
        pending={pending}
      >
        <Field
          label="URL"
          type="url"
          required
          maxLength={2000}
          placeholder="https://example.com/hooks/helio"
          {...fieldProps(creating, "url")}
        />
        <Field label="Description" maxLength={200} {...fieldProps(creating, "description")} />
        <CheckboxList
          name="events"
          label="Events"
          showLabel
          data-testid="webhook-events"
          items={WEBHOOK_EVENTS.map((e) => ({ value: e, label: e, detail: EVENT_HINTS[e] }))}
          checked={new Set(postedValues(creating, "events", ["message.received"]))}
          errors={fieldErrorsOf(creating, "events")}
        />
        <Field
          label="Deliveries per hour at most"
          type="number"
          min={1}
          max={100000}
          {...fieldProps(creating, "maxPerHour", "600")}
          hint="Past it, deliveries wait for the next hour (none is dropped)."
        />
      </CreateFormCard>
      <RowsCard
        title="Subscriptions"
        error={rowFailure?.message}
        items={subscriptions}
        data-testid="webhook-subscriptions"
        itemTestId="webhook-subscription"
        empty={{ icon: Webhook, title: "No webhooks yet", description: "Nothing is sent to other systems." }}
        actions={(s) => (
          <PostButton intent={s.enabled ? "disable" : "enable"} fields={{ id: s.id }} disabled={pending} of={s.url}>
            {s.enabled ? "Turn off" : "Turn on"}
          </PostButton>
        )}
      >
        {(s) => (
          <>
            <Link to={`/settings/webhooks/${s.id}`} className="font-medium break-all underline">
              {s.url}
            </Link>
            {s.description ? <p className="text-sm break-words text-fg-muted">{s.description}</p> : null}
            <WebhookStatus subscription={s} />
          </>
        )}
      </RowsCard>
    </div>
  );
}
