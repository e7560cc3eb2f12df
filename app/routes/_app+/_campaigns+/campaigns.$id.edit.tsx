import { recordActivity } from "~/activity/log-activity.server";
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { Form, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { requireUser } from "~/http/guard.server";
import { CAMPAIGN_NOT_FOUND, updateCampaignSchema } from "~/campaigns/campaign-schema";
import { formAction } from "~/http/form-action.server";
import { withDefaults } from "~/http/form-schema";
import { getCampaign } from "~/campaigns/get-campaign.server";
import { updateCampaign } from "~/campaigns/update-campaign.server";
import { failureToast } from "~/components/form-failure";
import { useFailureToast } from "~/components/toaster";
import { Alert, Checkbox, Dialog, DialogActions, Field } from "~/components/ui";
import { routeId, throwAsResponse } from "~/http/http.server";
import { redirectWithToast } from "~/http/toast.server";

export const meta: MetaFunction = () => [{ title: "Edit Campaign — Helio" }];
const FAILED = "Error updating campaign";

export async function loader(args: LoaderFunctionArgs) {
  await requireUser(args);
  return {
    campaign: await getCampaign(args.context.db, routeId(args.params.id, CAMPAIGN_NOT_FOUND)).catch(throwAsResponse),
  };
}

// An unticked box posts nothing: the setting is sent explicitly.
const editForm = withDefaults(
  { name: "", description: "", promoCode: "", offerExpiration: "" },
  updateCampaignSchema,
  (v) => ({ ...v, stopOnReply: v.stopOnReply === "true" ? "true" : "false" }),
);

export async function action(args: ActionFunctionArgs) {
  const { request, context } = args;
  const id = () => routeId(args.params.id, CAMPAIGN_NOT_FOUND);
  return formAction(args, { schema: editForm, title: FAILED, before: id }, async (input, { user }) => {
    const c = await updateCampaign(context.db, id(), input, context.clock());
    await recordActivity(args, user.id, "update_campaign", { campaignId: id(), fields: Object.keys(input) });
    return redirectWithToast(context, `/campaigns${new URL(request.url).search}`, {
      title: "Campaign updated",
      description: c.name,
    });
  });
}

export default function EditCampaign() {
  const { campaign: c } = useLoaderData<typeof loader>();
  const failure = useActionData<typeof action>();
  const pending = useNavigation().state === "submitting";
  useFailureToast(failure, failureToast(failure, FAILED));
  const err = (f: string) => (failure && !failure.ok && failure.field === f ? [failure.message] : null);
  return (
    <Dialog title="Edit Campaign">
      <Form method="post" className="space-y-4" noValidate>
        {failure && !failure.ok && !["name", "offerExpiration", "promoCode"].includes(failure.field ?? "") ? (
          <Alert tone="danger">{failure.message}</Alert>
        ) : null}
        <Field label="Name" name="name" defaultValue={c.name} errors={err("name")} />
        <Field label="Description" name="description" as="textarea" rows={2} defaultValue={c.description ?? ""} />
        <div className="grid gap-3 sm:grid-cols-2">
          <Field
            label="Promo code"
            name="promoCode"
            defaultValue={c.promoCode ?? ""}
            errors={err("promoCode")}
            hint="Fills {{promoCode}}"
          />
          <Field
            label="Offer expiration"
            name="offerExpiration"
            type="date"
            defaultValue={c.offerExpiration ?? ""}
            errors={err("offerExpiration")}
            hint="Fills {{offerExpiration}}"
          />
        </div>
        <Checkbox name="stopOnReply" defaultChecked={c.stopOnReply} label="Stop a contact's sequence when they reply" />
        <DialogActions label="Save Changes" pendingLabel="Saving..." pending={pending} />
      </Form>
    </Dialog>
  );
}
