import { AppError } from "~/lib/app-error";
import { MAX_PICTURE_FORM_BYTES } from "~/http/read-body.server";
import { PICTURE_SIZE_ERROR, storeOutboundPicture } from "~/messaging/outbound-pictures.server";
import { recordActivity } from "~/activity/log-activity.server";
import { type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/cloudflare";
import { Form, useActionData, useLoaderData, useLocation, useNavigation, useSearchParams } from "@remix-run/react";
import { Pencil, Plus, Trash2 } from "lucide-react";
import { useState } from "react";
import { z } from "zod";
import { AI_QUERY, GenerateStepButton } from "~/ai/generate-step-button";
import { requireUser } from "~/http/guard.server";
import { addCampaignStep } from "~/campaigns/add-campaign-step.server";
import {
  addStepSchema,
  CAMPAIGN_NOT_FOUND,
  checkStep,
  parseInput,
  STEP_NOT_FOUND,
  STEP_VARIABLES,
  stepSchema,
  TOASTS,
  type ValidStep,
} from "~/campaigns/campaign-schema";
import { deleteCampaignStep } from "~/campaigns/delete-campaign-step.server";
import { getCampaign } from "~/campaigns/get-campaign.server";
import { listCampaignSteps, type PublicStep } from "~/campaigns/list-campaign-steps.server";
import { formatCount } from "~/lib/format-count";
import { EMPTY_STEP, segmentLabel, StepFields, type StepDefaults } from "~/campaigns/step-form";
import { getStepRow, updateCampaignStep } from "~/campaigns/update-campaign-step.server";
import { useFailureToast } from "~/components/toaster";
import {
  Alert,
  Badge,
  Button,
  campaignStatusTone,
  ConfirmDialog,
  Dialog,
  DialogClose,
  Switch,
  TextLink,
} from "~/components/ui";
import { formAction } from "~/http/form-action.server";
import { intentError } from "~/http/form-schema";
import { failureToast } from "~/components/form-failure";
import { routeId, throwAsResponse } from "~/http/http.server";
import { parseId } from "~/lib/ids";
import { redirectWithToast } from "~/http/toast.server";

export const meta: MetaFunction = () => [{ title: "Campaign Steps — Helio" }];

export async function loader(args: LoaderFunctionArgs) {
  await requireUser(args);
  const id = routeId(args.params.id, CAMPAIGN_NOT_FOUND);
  const { db } = args.context;
  const [campaign, steps] = await Promise.all([getCampaign(db, id), listCampaignSteps(db, id)]).catch(throwAsResponse);
  const params = new URL(args.request.url).searchParams;
  return {
    campaign,
    steps,
    editId: parseId(params.get("edit")),
    deleteId: parseId(params.get("delete")),
    variables: [...STEP_VARIABLES],
  };
}

const intentSchema = z.enum(["add", "update", "toggle", "delete"]);
type Intent = z.infer<typeof intentSchema>;
const TOAST_OF: Record<Intent, string> = {
  add: TOASTS.addStep,
  update: TOASTS.updateStep,
  toggle: TOASTS.updateStep,
  delete: TOASTS.deleteStep,
};
const DONE: Record<Intent, string> = {
  add: "Step added",
  update: "Step updated",
  toggle: "Step updated",
  delete: "Step deleted",
};

/** A step of this campaign, or 404 (a step id from another campaign is not found here). */
async function stepOf(args: ActionFunctionArgs, campaignId: number, raw: unknown) {
  const step = await getStepRow(args.context.db, routeId(raw, STEP_NOT_FOUND));
  if (step.campaignId !== campaignId) throw new Response(STEP_NOT_FOUND, { status: 404 });
  return step;
}

// The add and edit forms post the step's fields (checked by the step schemas below, with their own messages); the
// switch posts isActive; delete only the step id.
const stepsForm = z
  .object({
    intent: z.enum(intentSchema.options, intentError()),
    stepId: z.unknown(),
    isActive: z.unknown(),
    removePicture: z.unknown(),
  })
  .passthrough();
/** The step forms carry a picture (decision 076): its cap plus the fields. */
const STEP_FORM_LIMIT = { maxBytes: MAX_PICTURE_FORM_BYTES, message: PICTURE_SIZE_ERROR };

export async function action(args: ActionFunctionArgs) {
  const { context } = args;
  const id = () => routeId(args.params.id, CAMPAIGN_NOT_FOUND);
  const title = (intent: string | undefined) => (intent && intent in TOAST_OF ? TOAST_OF[intent as Intent] : undefined);
  return formAction(
    args,
    { schema: stepsForm, title, before: id, limit: STEP_FORM_LIMIT, hide: ["picture"] },
    async (form, { user, form: posted }) => {
      const { intent, stepId, isActive, removePicture, ...fields } = form;
      const now = context.clock();
      // An SMS step's picture (decision 076): a new file is checked and stored; "remove" clears it; else it stays.
      const picture = async (messageType: string) => {
        const file = posted.get("picture");
        if (file instanceof File && file.size > 0) {
          if (messageType !== "sms")
            throw new AppError("validation", "A picture goes with an SMS step", { field: "picture" });
          return storeOutboundPicture(context.cloudflare.env.MEDIA, file);
        }
        return removePicture === "1" || messageType !== "sms" ? null : undefined;
      };
      if (intent === "add") {
        const { campaignId, ...input } = parseInput(addStepSchema, { ...fields, campaignId: id() }, TOASTS.addStep);
        const checked = checkStep(input);
        const step = await addCampaignStep(
          context.db,
          campaignId,
          { ...checked, picture: await picture(checked.messageType) },
          now,
        );
        await recordActivity(args, user.id, "create_campaign_step", { campaignId, stepId: step.id });
      } else if (intent === "delete") {
        const deleted = (await stepOf(args, id(), stepId)).id;
        await deleteCampaignStep(context.db, deleted, now);
        await recordActivity(args, user.id, "delete_campaign_step", { campaignId: id(), stepId: deleted });
      } else {
        const current = await stepOf(args, id(), stepId);
        let next: ValidStep;
        if (intent === "toggle") {
          // The switch posts isActive "true"/"false" explicitly; everything else stays as it is.
          const { name, messageType, subject, content, delayDays, delayHours, windowStart, windowEnd, windowWeekdays } =
            current;
          next = {
            name,
            messageType: messageType as ValidStep["messageType"],
            subject,
            content,
            delayDays,
            delayHours,
            windowStart,
            windowEnd,
            windowWeekdays,
            isActive: isActive === "true",
          };
        } else {
          next = checkStep(
            parseInput(stepSchema, { windowWeekdays: "false", ...fields }, TOASTS.updateStep),
            current.isActive,
          );
          next.picture = await picture(next.messageType);
        }
        await updateCampaignStep(context.db, current.id, next, now);
        await recordActivity(args, user.id, "update_campaign_step", {
          campaignId: id(),
          stepId: current.id,
          ...(intent === "toggle" ? { isActive: next.isActive } : {}),
        });
      }
      return redirectWithToast(context, `/campaigns/${id()}/steps`, { title: DONE[intent] });
    },
  );
}

export default function CampaignSteps() {
  const { campaign, steps, editId, deleteId, variables } = useLoaderData<typeof loader>();
  const failure = useActionData<typeof action>();
  const { pathname, search } = useLocation();
  const [searchParams] = useSearchParams();
  const navigation = useNavigation();
  const pending = navigation.state === "submitting";
  useFailureToast(failure, failureToast(failure));

  const toDelete = deleteId !== null ? steps.find((s) => s.id === deleteId) : undefined;
  if (toDelete) {
    return (
      <ConfirmDialog
        title="Delete step"
        confirmLabel="Delete"
        pendingLabel="Deleting..."
        destructive
        closeTo={pathname}
        fields={{ intent: "delete", stepId: String(toDelete.id) }}
        error={failure?.intent === "delete" ? failureToast(failure) : null}
      >
        <p>Are you sure you want to delete this step?</p>
        <p className="mt-2 text-fg-muted">
          Step {toDelete.stepNumber}: <span className="font-medium text-fg">{toDelete.name}</span>
        </p>
      </ConfirmDialog>
    );
  }

  const addFailure = failure && failure.intent === "add" ? failure : null;
  // Without JS, "Generate with AI" comes back here with its draft in the query: it fills the form it was asked from
  // (the step being edited when there is one, else the add form).
  const aiContent = searchParams.get(AI_QUERY.content);
  const aiSubject = searchParams.get(AI_QUERY.subject);
  const aiName = searchParams.get(AI_QUERY.name);
  const aiError = searchParams.get(AI_QUERY.error);
  const aiDraft =
    aiContent !== null
      ? { content: aiContent, ...(aiSubject !== null ? { subject: aiSubject, messageType: "email" } : {}) }
      : null;
  // The generated name only fills an empty name: a step's own name is never replaced.
  const named = <T extends { name: string }>(step: T) =>
    aiDraft && aiName && !step.name.trim() ? { ...step, name: aiName } : step;
  const editing = editId !== null && steps.some((s) => s.id === editId);
  const addDefaults: StepDefaults = addFailure
    ? ({
        ...EMPTY_STEP,
        ...Object.fromEntries(Object.entries(addFailure.values).map(([k, v]) => [k, String(v)])),
        windowWeekdays: addFailure.values.windowWeekdays === "true",
      } as StepDefaults)
    : aiDraft && !editing
      ? named({ ...EMPTY_STEP, ...aiDraft })
      : EMPTY_STEP;
  const nextNumber = steps.length ? Math.max(...steps.map((s) => s.stepNumber)) + 1 : 1;
  const returnTo = `${pathname}${search}`;
  const ai = {
    campaignId: campaign.id,
    campaignName: campaign.name,
    campaignDescription: campaign.description,
    returnTo,
    previousSteps: (before: number) =>
      steps
        .filter((s) => s.stepNumber < before)
        .map((s) => ({
          stepNumber: s.stepNumber,
          messageType: asType(s.messageType),
          content: s.content,
          subject: s.subject,
        })),
  };

  return (
    <Dialog
      title={`Steps — ${campaign.name}`}
      description={
        <span>
          <Badge tone={campaignStatusTone(campaign.status)}>{campaign.status}</Badge> {steps.length}{" "}
          {steps.length === 1 ? "step" : "steps"}
        </span>
      }
      size="lg"
      closeTo="/campaigns"
    >
      <ol className="space-y-3" data-testid="step-list">
        {steps.length === 0 ? <li className="text-sm text-fg-subtle">No steps yet. Add the first one below.</li> : null}
        {steps.map((s) =>
          s.id === editId ? (
            <li key={s.id} className="space-y-3 rounded-md border border-primary p-3" data-testid="step-row">
              {/* Outside the edit <Form>: the assistant posts its own form (forms cannot nest). */}
              <GenerateStepButton
                campaignId={ai.campaignId}
                campaignName={ai.campaignName}
                campaignDescription={ai.campaignDescription}
                stepNumber={s.stepNumber}
                messageType={asType(s.messageType)}
                previousSteps={ai.previousSteps(s.stepNumber)}
                contentFieldId={`edit-${s.id}-content`}
                subjectFieldId={`edit-${s.id}-subject`}
                nameFieldId={`edit-${s.id}-name`}
                returnTo={returnTo}
                error={aiError}
              />
              <Form
                method="post"
                encType="multipart/form-data"
                action={pathname}
                preventScrollReset
                className="space-y-3"
                noValidate
              >
                <input type="hidden" name="intent" value="update" />
                <input type="hidden" name="stepId" value={s.id} />
                <p className="text-sm font-semibold">Editing step {s.stepNumber}</p>
                {failure && failure.intent === "update" && !failure.field ? (
                  <Alert tone="danger">{failure.message}</Alert>
                ) : null}
                <StepFields
                  key={aiContent ?? "saved"}
                  idPrefix={`edit-${s.id}`}
                  defaults={aiDraft ? named({ ...s, ...aiDraft }) : s}
                  variables={variables}
                  errors={
                    failure && failure.intent === "update" && failure.field
                      ? { field: failure.field, message: failure.message }
                      : null
                  }
                />
                <div className="flex justify-end gap-2">
                  <Button to={pathname} variant="secondary" preventScrollReset>
                    Cancel
                  </Button>
                  <Button type="submit" disabled={pending}>
                    Save
                  </Button>
                </div>
              </Form>
            </li>
          ) : (
            <StepRow key={s.id} s={s} base={pathname} />
          ),
        )}
      </ol>

      <AddStep
        key={addFailure ? "retry" : `add-${steps.length}-${editing ? "" : (aiContent ?? "")}`}
        action={pathname}
        stepNumber={nextNumber}
        defaults={addDefaults}
        variables={variables}
        pending={pending}
        failure={addFailure ? { field: addFailure.field ?? null, message: addFailure.message } : null}
        assistant={(messageType) => (
          <GenerateStepButton
            campaignId={ai.campaignId}
            campaignName={ai.campaignName}
            campaignDescription={ai.campaignDescription}
            stepNumber={nextNumber}
            messageType={messageType}
            previousSteps={ai.previousSteps(nextNumber)}
            contentFieldId="add-content"
            subjectFieldId="add-subject"
            nameFieldId="add-name"
            returnTo={pathname}
            error={editing ? null : aiError}
          />
        )}
      />
    </Dialog>
  );
}

function asType(t: string): "sms" | "email" {
  return t === "email" ? "email" : "sms";
}

/** The add form, with "Generate with AI" above it asking for the type the form currently has. */
function AddStep({
  action,
  stepNumber,
  defaults,
  variables,
  pending,
  failure,
  assistant,
}: {
  action: string;
  stepNumber: number;
  defaults: StepDefaults;
  variables: string[];
  pending: boolean;
  failure: { field: string | null; message: string } | null;
  assistant: (messageType: "sms" | "email") => React.ReactNode;
}) {
  const [type, setType] = useState(asType(defaults.messageType));
  return (
    <section className="mt-6 space-y-3 border-t border-border pt-4">
      <h4 className="font-semibold">Add step {stepNumber}</h4>
      {/* Outside the add <Form>: the assistant posts its own form (forms cannot nest). */}
      <div data-testid="ai-assist-slot">{assistant(type)}</div>
      <Form
        method="post"
        encType="multipart/form-data"
        action={action}
        preventScrollReset
        className="space-y-3"
        noValidate
        data-testid="add-step-form"
      >
        <input type="hidden" name="intent" value="add" />
        {failure && !failure.field ? <Alert tone="danger">{failure.message}</Alert> : null}
        <StepFields
          idPrefix="add"
          defaults={defaults}
          variables={variables}
          errors={failure?.field ? { field: failure.field, message: failure.message } : null}
          onTypeChange={(t) => setType(asType(t))}
        />
        <div className="flex justify-end gap-2">
          <DialogClose>Close</DialogClose>
          <Button type="submit" icon={Plus} disabled={pending}>
            Add Step
          </Button>
        </div>
      </Form>
    </section>
  );
}

function StepRow({ s, base }: { s: PublicStep; base: string }) {
  return (
    <li
      className="rounded-md border border-border p-3"
      data-testid="step-row"
      aria-label={`Step ${s.stepNumber}: ${s.name}`}
    >
      <div className="flex flex-wrap items-center gap-2">
        <span className="flex size-6 items-center justify-center rounded-full bg-primary-soft text-xs font-semibold text-primary-text">
          {s.stepNumber}
        </span>
        <span className="font-medium">{s.name}</span>
        <Badge tone={s.messageType === "email" ? "info" : "primary"}>
          {s.messageType === "email" ? "Email" : "SMS"}
        </Badge>
        <Badge tone="neutral">{s.delayLabel}</Badge>
        {s.windowStart ? (
          <span className="text-xs text-fg-muted">
            {s.windowStart}–{s.windowEnd}
            {s.windowWeekdays ? ", weekdays" : ""}
          </span>
        ) : null}
        <span className="ml-auto flex items-center gap-3">
          <Switch
            name="isActive"
            checked={s.isActive}
            label={`Active: step ${s.stepNumber} ${s.name}`}
            action={base}
            fields={{ intent: "toggle", stepId: String(s.id) }}
          />
          <TextLink to={`${base}?edit=${s.id}`} preventScrollReset aria-label={`Edit step ${s.stepNumber}`}>
            <Pencil aria-hidden="true" className="mr-1 inline size-4" />
            Edit
          </TextLink>
          <TextLink
            tone="danger"
            to={`${base}?delete=${s.id}`}
            preventScrollReset
            aria-label={`Delete step ${s.stepNumber}`}
          >
            <Trash2 aria-hidden="true" className="mr-1 inline size-4" />
            Delete
          </TextLink>
        </span>
      </div>
      {s.subject ? <p className="mt-2 text-sm font-medium">Subject: {s.subject}</p> : null}
      <p className="mt-1 text-sm whitespace-pre-wrap text-fg-muted" data-testid="step-content">
        {s.content}
      </p>
      {s.messageType === "sms" ? (
        <p className="mt-1 text-xs text-fg-subtle">
          {s.picture ? (
            <span data-testid="step-picture">With a picture ({s.picture.filename}), sent as MMS · </span>
          ) : null}
          {segmentLabel(s.content)}
          {s.clickCount > 0 ? (
            <span data-testid="step-clicks">
              {" "}
              · {formatCount(s.clickCount)} link {s.clickCount === 1 ? "click" : "clicks"}
            </span>
          ) : null}
        </p>
      ) : null}
    </li>
  );
}
