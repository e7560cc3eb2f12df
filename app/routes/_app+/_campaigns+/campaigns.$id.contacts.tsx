import { recordActivity } from "~/activity/log-activity.server";
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { Form, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { requireUser } from "~/http/guard.server";
import { addCampaignContacts } from "~/campaigns/add-campaign-contacts.server";
import { addContactsSchema, CAMPAIGN_NOT_FOUND } from "~/campaigns/campaign-schema";
import { formAction } from "~/http/form-action.server";
import { asList } from "~/http/form-schema";
import { z } from "zod";
import { ContactPicker } from "~/contacts/contact-picker";
import { getCampaign } from "~/campaigns/get-campaign.server";
import { loadContactPicker, pickerState } from "~/contacts/load-contact-picker.server";
import { viewerOf } from "~/contacts/contact-scope.server";
import { failureToast } from "~/components/form-failure";
import { useFailureToast } from "~/components/toaster";
import { Alert, Dialog, DialogActions } from "~/components/ui";
import { routeId, throwAsResponse } from "~/http/http.server";
import { redirectWithToast } from "~/http/toast.server";
import { formatCount } from "~/lib/format-count";

export const meta: MetaFunction = () => [{ title: "Add Contacts — Helio" }];
const FAILED = "Error adding contacts";

export async function loader(args: LoaderFunctionArgs) {
  const me = await requireUser(args);
  const id = routeId(args.params.id, CAMPAIGN_NOT_FOUND);
  const state = pickerState(new URL(args.request.url).searchParams);
  const [campaign, picker] = await Promise.all([
    getCampaign(args.context.db, id).catch(throwAsResponse),
    loadContactPicker(args.context.db, state, viewerOf(me)),
  ]);
  return {
    campaign: { id: campaign.id, name: campaign.name, contactCount: campaign.contactCount },
    picker,
    picked: state.picked,
  };
}

/** Picked contacts join the campaign at step 1 (already enrolled ones are left alone). */
const addContactsForm = z.object({ contactIds: asList(addContactsSchema.shape.contactIds) });

export async function action(args: ActionFunctionArgs) {
  const { context } = args;
  const id = () => routeId(args.params.id, CAMPAIGN_NOT_FOUND);
  return formAction(args, { schema: addContactsForm, title: FAILED, before: id }, async (input, { user }) => {
    const { added, campaign } = await addCampaignContacts(
      context.db,
      id(),
      input.contactIds,
      context.clock(),
      viewerOf(user),
    );
    await recordActivity(args, user.id, "add_campaign_contacts", { campaignId: id(), added });
    return redirectWithToast(context, "/campaigns", {
      title: `${formatCount(added)} ${added === 1 ? "contact" : "contacts"} added`,
      description: campaign.name,
    });
  });
}

export default function AddCampaignContacts() {
  const { campaign, picker, picked } = useLoaderData<typeof loader>();
  const failure = useActionData<typeof action>();
  const navigation = useNavigation();
  const pending = navigation.state === "submitting" && navigation.formMethod === "POST";
  useFailureToast(failure, failureToast(failure, FAILED));
  return (
    <Dialog
      title={`Add contacts — ${campaign.name}`}
      description={`${formatCount(campaign.contactCount)} enrolled. New contacts start at step 1.`}
      size="lg"
      closeTo="/campaigns"
    >
      <Form method="post" className="space-y-4">
        {failure && !failure.ok ? <Alert tone="danger">{failure.message}</Alert> : null}
        <ContactPicker data={picker} picked={picked} />
        <DialogActions label="Add Contacts" pendingLabel="Adding..." pending={pending} />
      </Form>
    </Dialog>
  );
}
