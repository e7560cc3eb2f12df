import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { Form, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { SquareKanban } from "lucide-react";
import { z } from "zod";
import {
  createPipelineStage,
  deletePipelineStage,
  movePipelineStage,
  renamePipelineStage,
} from "~/contacts/manage-pipeline-stages.server";
import { BUILT_IN_STAGES, MAX_STAGE_LABEL } from "~/contacts/pipeline-stage-limits";
import { listPipelineStages } from "~/contacts/pipeline-stages.server";
import { failureByIntent, fieldProps, formErrorOf } from "~/components/form-failure";
import { Badge, Button, CreateFormCard, Field, PageHeader, PostButton, RowsCard, TextLink } from "~/components/ui";
import { STAGE_OUTCOMES } from "~/db/schema";
import { formAction } from "~/http/form-action.server";
// Schema helpers from the module the browser bundle keeps: a .server module is empty there (decision 030).
import { intentError, withDefaults } from "~/http/form-schema";
import { requireUser } from "~/http/guard.server";
import { redirectWithToast } from "~/http/toast.server";

export const meta: MetaFunction = () => [{ title: "Pipeline stages — Helio" }];

const OUTCOME_LABEL = { open: "Open", won: "Won", lost: "Lost" } as const;
const OUTCOME_TONE = { open: "neutral", won: "success", lost: "danger" } as const;

// Superusers only (decision 053): the stages every rep's board and list use.
export async function loader(args: LoaderFunctionArgs) {
  await requireUser(args, { role: "superuser" });
  return { stages: await listPipelineStages(args.context.db) };
}

const label = z
  .string({ required_error: "Name the stage" })
  .trim()
  .min(1, "Name the stage")
  .max(MAX_STAGE_LABEL, `Keep the name under ${MAX_STAGE_LABEL} characters`);
const key = z.string().trim().min(1, "Stage not found").max(40, "Stage not found");
const stagesForm = withDefaults(
  { label: "", outcome: "open" },
  z.discriminatedUnion(
    "intent",
    [
      z.object({
        intent: z.literal("create"),
        label,
        outcome: z.enum(STAGE_OUTCOMES, { message: "Choose an outcome" }),
      }),
      z.object({ intent: z.literal("rename"), key, label }),
      z.object({ intent: z.literal("up"), key }),
      z.object({ intent: z.literal("down"), key }),
      z.object({ intent: z.literal("delete"), key }),
    ],
    intentError(),
  ),
);

export async function action(args: ActionFunctionArgs) {
  return formAction(
    args,
    { schema: stagesForm, role: "superuser", title: "Stages not changed" },
    async (input, { actor }) => {
      const { db } = args.context;
      const now = args.context.clock();
      const back = (title: string) => redirectWithToast(args.context, "/pipeline-stages", { title });
      switch (input.intent) {
        case "create":
          await createPipelineStage(db, input, actor, now);
          return back(`Stage “${input.label}” added`);
        case "rename":
          await renamePipelineStage(db, input.key, input.label, actor, now);
          return back(`Stage renamed to “${input.label}”`);
        case "delete":
          await deletePipelineStage(db, input.key, actor, now);
          return back("Stage deleted");
        default:
          await movePipelineStage(db, input.key, input.intent, actor, now);
          return back("Stage moved");
      }
    },
  );
}

export default function PipelineStages() {
  const { stages } = useLoaderData<typeof loader>();
  const { form: creating, other: rowFailure } = failureByIntent(useActionData<typeof action>(), "create");
  const pending = useNavigation().state === "submitting";
  return (
    <div className="space-y-6">
      <PageHeader
        title="Pipeline stages"
        description={
          <>
            The stages of every rep&apos;s <TextLink to="/contacts/pipeline">pipeline board</TextLink>, in order. New
            contacts start in the first built-in stage and move to the second when their first message goes out.
          </>
        }
      />
      <CreateFormCard
        title="New stage"
        data-testid="stage-form"
        error={formErrorOf(creating, ["label", "outcome"])}
        submitLabel="Add stage"
        pendingLabel="Saving..."
        pending={pending}
      >
        <Field label="Name" required maxLength={MAX_STAGE_LABEL} {...fieldProps(creating, "label")} />
        <Field
          as="select"
          label="Outcome"
          options={STAGE_OUTCOMES.map((o) => ({ value: o, label: OUTCOME_LABEL[o] }))}
          hint="Won and Lost stages end a sale; Open ones are on the way."
          {...fieldProps(creating, "outcome", "open")}
        />
      </CreateFormCard>
      <RowsCard
        title="Stages"
        error={rowFailure?.message}
        items={stages.map((s) => ({ ...s, id: s.key }))}
        data-testid="pipeline-stages"
        itemTestId="pipeline-stage-row"
        empty={{ icon: SquareKanban, title: "No stages", description: "Add the first one above." }}
        actions={(s) => (
          <div className="flex flex-wrap gap-2">
            <PostButton intent="up" fields={{ key: s.key }} disabled={pending} of={s.label}>
              Up
            </PostButton>
            <PostButton intent="down" fields={{ key: s.key }} disabled={pending} of={s.label}>
              Down
            </PostButton>
            {(BUILT_IN_STAGES as readonly string[]).includes(s.key) ? null : (
              <PostButton intent="delete" fields={{ key: s.key }} variant="destructive" disabled={pending} of={s.label}>
                Delete
              </PostButton>
            )}
          </div>
        )}
      >
        {(s) => (
          <Form method="post" className="flex flex-wrap items-end gap-2">
            <input type="hidden" name="key" value={s.key} />
            <Field label={`Name of ${s.key}`} id={`stage-label-${s.key}`} name="label" defaultValue={s.label} inline />
            <Button type="submit" name="intent" value="rename" variant="secondary" size="sm" disabled={pending}>
              Rename
            </Button>
            <Badge tone={OUTCOME_TONE[s.outcome]}>{OUTCOME_LABEL[s.outcome]}</Badge>
          </Form>
        )}
      </RowsCard>
    </div>
  );
}
