import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { Form, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { requireUser } from "~/http/guard.server";
import { createCampaignSchema, TOASTS } from "~/campaigns/campaign-schema";
import { ContactPicker } from "~/contacts/contact-picker";
import { createCampaign } from "~/campaigns/create-campaign.server";
import { loadContactPicker, pickerState } from "~/contacts/load-contact-picker.server";
import { viewerOf } from "~/contacts/contact-scope.server";
import { countMatchingContacts } from "~/campaigns/count-matching-contacts.server";
import { listSegmentChoices } from "~/segments/list-segments.server";
import { readSchedule, scheduleFields } from "~/campaigns/schedule-schema";
import { ScheduleFields } from "~/campaigns/schedule-fields";
import { failureToast } from "~/components/form-failure";
import { useFailureToast } from "~/components/toaster";
import { Alert, Dialog, DialogActions, Field } from "~/components/ui";
import { formAction } from "~/http/form-action.server";
import { asList } from "~/http/form-schema";
import { z } from "zod";
import { redirectWithToast } from "~/http/toast.server";

export const meta: MetaFunction = () => [{ title: "Create Campaign — Helio" }];

/** The dialog re-rendered by its own GET (picker search/paging): the typed fields come back from the URL. */
export async function loader(args: LoaderFunctionArgs) {
  const me = await requireUser(args);
  const params = new URL(args.request.url).searchParams;
  const state = pickerState(params);
  const [picker, segmentChoices] = await Promise.all([
    loadContactPicker(args.context.db, state, viewerOf(me), { countMatching: countMatchingContacts }),
    listSegmentChoices(args.context.db),
  ]);
  const segmentId = Number(params.get("segmentId"));
  const echo = (k: string) => (params.get(k) ?? "").slice(0, 2000);
  return {
    picker,
    picked: state.picked,
    segments: {
      choices: segmentChoices,
      selected: segmentChoices.some((s) => s.id === segmentId) ? segmentId : null,
    },
    form: {
      name: echo("name"),
      description: echo("description"),
      schedule: (echo("schedule") === "later" ? "later" : "now") as "now" | "later",
      startAt: echo("startAt"),
      tz: echo("tz"),
      selectAll: params.get("selectAll") === "1",
    },
  };
}

/**
 * The dialog's fields → createCampaign's input: the start time first (ScheduleFields, an IANA zone), then the
 * campaign (picked contacts, or every contact matching the search when "select all" is ticked).
 */
const newCampaignForm = z
  .object({
    ...scheduleFields,
    selectAll: z.unknown(),
    audienceQ: z.unknown(),
    segmentId: z.unknown(),
    contactIds: asList(z.array(z.unknown())),
    name: z.unknown(),
    description: z.unknown(),
  })
  .transform((f, ctx) => {
    const at = readSchedule(f, ctx);
    if (at === null) return z.NEVER;
    const parsed = createCampaignSchema.safeParse({
      name: f.name ?? "",
      description: f.description ?? "",
      scheduledAt: at,
      startDate: at,
      // A segment wins over the picks (the picker says so); "select all" over the picks.
      ...(typeof f.segmentId === "string" && f.segmentId
        ? { segmentId: f.segmentId }
        : f.selectAll === "1"
          ? { audienceQuery: String(f.audienceQ ?? "") }
          : { contactIds: f.contactIds }),
    });
    if (!parsed.success) {
      parsed.error.issues.forEach((issue) => ctx.addIssue(issue));
      return z.NEVER;
    }
    return parsed.data;
  });

export async function action(args: ActionFunctionArgs) {
  const { context } = args;
  return formAction(args, { schema: newCampaignForm, title: TOASTS.create }, async (input, { actor, user }) => {
    const c = await createCampaign(context.db, input, { ...actor, role: user.role }, context.clock());
    // Next: its steps.
    return redirectWithToast(context, `/campaigns/${c.id}/steps`, { title: "Campaign created", description: c.name });
  });
}

export default function NewCampaign() {
  const { picker, picked, form, segments } = useLoaderData<typeof loader>();
  const failure = useActionData<typeof action>();
  const navigation = useNavigation();
  const pending = navigation.state === "submitting" && navigation.formMethod === "POST";
  useFailureToast(failure, failureToast(failure, TOASTS.create));
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
          <ContactPicker data={picker} picked={picked} selectAll={{ checked: form.selectAll }} segments={segments} />
        </div>
        <DialogActions label="Create Campaign" pendingLabel="Creating..." pending={pending} />
      </Form>
    </Dialog>
  );
}
