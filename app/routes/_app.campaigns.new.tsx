import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { Form, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { requireUser } from "~/http/guard.server";
import { createCampaignSchema, parseInput, TOASTS } from "~/campaigns/campaign-schema";
import { ContactPicker } from "~/campaigns/contact-picker";
import { createCampaign } from "~/campaigns/create-campaign.server";
import { loadContactPicker, pickerState } from "~/campaigns/load-contact-picker.server";
import { scheduleFromForm } from "~/campaigns/local-time";
import { ScheduleFields } from "~/campaigns/schedule-fields";
import { useFailureToast } from "~/components/toaster";
import { Alert, Dialog, DialogActions, Field } from "~/components/ui";
import { formErrorReply } from "~/http/http.server";
import { clientIp } from "~/lib/request.server";
import { redirectWithToast } from "~/http/toast.server";

export const meta: MetaFunction = () => [{ title: "Create Campaign — Helio" }];

/** The dialog re-rendered by its own GET (picker search/paging): the typed fields come back from the URL. */
export async function loader(args: LoaderFunctionArgs) {
  await requireUser(args);
  const params = new URL(args.request.url).searchParams;
  const state = pickerState(params);
  const picker = await loadContactPicker(args.context.db, state);
  const echo = (k: string) => (params.get(k) ?? "").slice(0, 2000);
  return {
    picker,
    picked: state.picked,
    form: { name: echo("name"), description: echo("description"), schedule: (echo("schedule") === "later" ? "later" : "now") as "now" | "later", startAt: echo("startAt"), tz: echo("tz"), selectAll: params.get("selectAll") === "1" },
  };
}

export async function action(args: ActionFunctionArgs) {
  const user = await requireUser(args);
  const { request, context } = args;
  const form = await request.formData();
  try {
    const at = scheduleFromForm(form, TOASTS.create);
    const all = form.get("selectAll") === "1";
    const input = parseInput(
      createCampaignSchema,
      {
        name: form.get("name") ?? "",
        description: form.get("description") ?? "",
        scheduledAt: at,
        startDate: at,
        ...(all ? { audienceQuery: String(form.get("audienceQ") ?? "") } : { contactIds: form.getAll("contactIds") }),
      },
      TOASTS.create,
    );
    const c = await createCampaign(context.db, input, { userId: user.id, ipAddress: clientIp(request) }, context.clock());
    // Next: its steps.
    return redirectWithToast(context, `/campaigns/${c.id}/steps`, { title: "Campaign created", description: c.name });
  } catch (err) {
    return formErrorReply(err, TOASTS.create);
  }
}

export default function NewCampaign() {
  const { picker, picked, form } = useLoaderData<typeof loader>();
  const failure = useActionData<typeof action>();
  const navigation = useNavigation();
  const pending = navigation.state === "submitting" && navigation.formMethod === "POST";
  useFailureToast(failure, failure && !failure.ok ? { title: failure.title ?? TOASTS.create, description: failure.message } : null);
  const fieldError = (f: string) => (failure && !failure.ok && failure.field === f ? [failure.message] : null);
  const other = failure && !failure.ok && !["name", "startAt"].includes(failure.field ?? "") ? failure.message : null;

  return (
    <Dialog title="Create Campaign" size="lg" closeTo="/campaigns">
      <Form method="post" id="campaign-new" className="space-y-4" noValidate>
        {other ? <Alert tone="danger">{other}</Alert> : null}
        <Field label="Name" name="name" defaultValue={form.name} errors={fieldError("name")} autoComplete="off" />
        <Field label="Description" name="description" as="textarea" rows={2} defaultValue={form.description} />
        <ScheduleFields schedule={form.schedule} startAt={form.startAt} tz={form.tz} errors={fieldError("startAt")} />
        <div>
          <p className="mb-1 text-sm font-medium">Contacts</p>
          <ContactPicker data={picker} picked={picked} selectAll={{ checked: form.selectAll }} />
        </div>
        <DialogActions label="Create Campaign" pendingLabel="Creating..." pending={pending} />
      </Form>
    </Dialog>
  );
}
