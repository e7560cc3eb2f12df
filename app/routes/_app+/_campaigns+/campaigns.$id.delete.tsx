import { recordActivity } from "~/activity/log-activity.server";
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { useActionData, useLoaderData } from "@remix-run/react";
import { requireUser } from "~/http/guard.server";
import { CAMPAIGN_NOT_FOUND } from "~/campaigns/campaign-schema";
import { deleteCampaign } from "~/campaigns/delete-campaign.server";
import { getCampaign } from "~/campaigns/get-campaign.server";
import { failureToast } from "~/components/form-failure";
import { useFailureToast } from "~/components/toaster";
import { ConfirmDialog } from "~/components/ui";
import { formAction } from "~/http/form-action.server";
import { z } from "zod";
import { routeId, throwAsResponse } from "~/http/http.server";
import { redirectWithToast } from "~/http/toast.server";

export const meta: MetaFunction = () => [{ title: "Delete Campaign — Helio" }];
const FAILED = "Error deleting campaign";

export async function loader(args: LoaderFunctionArgs) {
  await requireUser(args);
  const c = await getCampaign(args.context.db, routeId(args.params.id, CAMPAIGN_NOT_FOUND)).catch(throwAsResponse);
  return { campaign: { id: c.id, name: c.name, status: c.status } };
}

/** Only a draft can be deleted (the domain refuses the others with 409). */
export async function action(args: ActionFunctionArgs) {
  const { request, context } = args;
  return formAction(args, { schema: z.object({}), title: FAILED }, async (_, { user }) => {
    const id = routeId(args.params.id, CAMPAIGN_NOT_FOUND);
    await deleteCampaign(context.db, id);
    await recordActivity(args, user.id, "delete_campaign", { campaignId: id });
    return redirectWithToast(context, `/campaigns${new URL(request.url).search}`, { title: "Campaign deleted" });
  });
}

export default function DeleteCampaign() {
  const { campaign } = useLoaderData<typeof loader>();
  const failure = useActionData<typeof action>();
  useFailureToast(failure, failureToast(failure, FAILED));
  return (
    <ConfirmDialog
      title="Delete campaign"
      confirmLabel="Delete"
      pendingLabel="Deleting..."
      destructive
      error={failureToast(failure, FAILED)}
    >
      <p>Are you sure you want to delete this campaign and its steps?</p>
      <p className="mt-2 font-medium">{campaign.name}</p>
    </ConfirmDialog>
  );
}
