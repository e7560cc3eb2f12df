import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { useActionData, useLoaderData } from "@remix-run/react";
import { Download } from "lucide-react";
import { z } from "zod";
import { CAMPAIGN_NOT_FOUND, TOASTS } from "~/campaigns/campaign-schema";
import { checkCampaignStart, MAX_START_CHECK } from "~/campaigns/check-campaign-start.server";
import { startCampaign } from "~/campaigns/start-campaign.server";
import { failureToast } from "~/components/form-failure";
import { useFailureToast } from "~/components/toaster";
import { Alert, ConfirmDialog, TextLink } from "~/components/ui";
import { unregisteredSenderWarnings } from "~/deliverability/ten-dlc-readiness.server";
import { formAction } from "~/http/form-action.server";
import { requireUser } from "~/http/guard.server";
import { routeId, throwAsResponse } from "~/http/http.server";
import { redirectWithToast } from "~/http/toast.server";
import { formatCount } from "~/lib/format-count";
import { requirePublicUrl } from "~/messaging/check-public-url.server";
import { messagingConfig } from "~/messaging/messaging-config.server";
import { PreSendSummary } from "~/messaging/presend-summary";

export const meta: MetaFunction = () => [{ title: "Check Campaign — Helio" }];

/**
 * GET /campaigns/:id/check — a draft campaign's pre-start check (issue 29 item 4): its first step judged for each
 * contact it would go to, the 10DLC warning for texts, the list to download, and Start from there.
 */
export async function loader(args: LoaderFunctionArgs) {
  await requireUser(args);
  const { context } = args;
  const id = routeId(args.params.id, CAMPAIGN_NOT_FOUND);
  const result = await checkCampaignStart(context.db, {
    campaignId: id,
    now: context.clock(),
    publicBaseUrl: messagingConfig(context.cloudflare.env).publicBaseUrl,
    variables: context.domain().hooks.variables,
  }).catch(throwAsResponse);
  // Carriers block texts from a local number without a verified 10DLC campaign (decision 067).
  if (result.check && result.step?.type === "sms")
    result.check.warnings.push(...(await unregisteredSenderWarnings(context.db, context.sms())));
  return result;
}

/** Start from the check: the same domain call and toast as the card's Start button. */
export async function action(args: ActionFunctionArgs) {
  const { request, context } = args;
  return formAction(args, { schema: z.object({}), title: TOASTS.start }, async (_, { actor }) => {
    const id = routeId(args.params.id, CAMPAIGN_NOT_FOUND);
    requirePublicUrl(context.cloudflare.env);
    const c = await startCampaign(context.db, context.queue, id, actor, context.clock());
    return redirectWithToast(context, `/campaigns${new URL(request.url).search}`, {
      title: "Campaign started",
      description: c.name,
    });
  });
}

const UTC = (iso: string) => `${iso.replace("T", " ").slice(0, 16)} UTC`;

export default function CheckCampaign() {
  const { campaign, step, audience, check } = useLoaderData<typeof loader>();
  const failure = useActionData<typeof action>();
  useFailureToast(failure, failureToast(failure, TOASTS.start));
  return (
    <ConfirmDialog
      title="Check before starting"
      confirmLabel="Start campaign"
      pendingLabel="Starting..."
      error={failureToast(failure, TOASTS.start)}
    >
      <p className="font-medium">{campaign.name}</p>
      {step && check ? (
        <>
          <p className="mt-2 text-fg-muted" data-testid="check-step">
            Step {step.number} ({step.type === "sms" ? "SMS" : "Email"}),{" "}
            {step.delay === "Immediate" ? "at the start" : `${step.delay} after the start`}: due {UTC(step.dueAt)}
            {step.window ? `, sent ${step.window}` : ""}. Checked for {formatCount(audience.checked)} contact
            {audience.checked === 1 ? "" : "s"}.
          </p>
          {audience.truncated ? (
            <Alert tone="warning" className="mt-2">
              The check judged the first {formatCount(MAX_START_CHECK)} contacts of a larger audience.
            </Alert>
          ) : null}
          <div className="mt-3">
            <PreSendSummary check={check} channel={step.type} />
          </div>
          <p className="mt-3">
            <TextLink href={`/campaigns/${campaign.id}/check.csv`} download>
              <Download aria-hidden="true" className="mr-1 inline size-4" />
              Download the list
            </TextLink>
          </p>
        </>
      ) : (
        <Alert tone="warning" className="mt-2">
          Add at least one active step before starting the campaign.
        </Alert>
      )}
    </ConfirmDialog>
  );
}
