import { MAX_TAG_LENGTH } from "~/contacts/contact-tag";
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { Zap } from "lucide-react";
import { z } from "zod";
import {
  createSequenceTrigger,
  deleteSequenceTrigger,
  listSequenceTriggers,
  listTriggerableCampaigns,
  setSequenceTriggerEnabled,
} from "~/campaigns/manage-sequence-triggers.server";
import { createRuleSchema, MAX_RULE_NAME, MAX_SOURCE, TRIGGER_CHOICES } from "~/campaigns/sequence-trigger-schema";
import { listPipelineStages } from "~/contacts/pipeline-stages.server";
import { failureByIntent, fieldProps, formErrorOf } from "~/components/form-failure";
import {
  ActiveBadge,
  Badge,
  campaignStatusTone,
  CreateFormCard,
  Field,
  PageHeader,
  PostButton,
  RowsCard,
} from "~/components/ui";
import { formAction } from "~/http/form-action.server";
// Schema helpers from the module the browser bundle keeps: a .server module is empty there (decision 030).
import { intentError, withDefaults } from "~/http/form-schema";
import { requireUser } from "~/http/guard.server";
import { redirectWithToast } from "~/http/toast.server";
import { zodId } from "~/lib/ids";

export const meta: MetaFunction = () => [{ title: "Lead triggers — Helio" }];

// Superusers only (decision 037): a rule starts a sequence for every matching lead from every API key.
export async function loader(args: LoaderFunctionArgs) {
  await requireUser(args, { role: "superuser" });
  const [rules, campaigns, stages] = await Promise.all([
    listSequenceTriggers(args.context.db),
    listTriggerableCampaigns(args.context.db),
    listPipelineStages(args.context.db),
  ]);
  return { rules, campaigns, stages: stages.map((s) => ({ key: s.key, label: s.label })) };
}

const ruleId = zodId("Trigger rule not found");
const leadTriggerForm = withDefaults(
  { name: "", on: "lead.created", source: "", stage: "", clickedIn: "", tag: "", campaignId: "" },
  z.discriminatedUnion(
    "intent",
    [
      createRuleSchema.extend({ intent: z.literal("create") }),
      z.object({ intent: z.literal("enable"), id: ruleId }),
      z.object({ intent: z.literal("disable"), id: ruleId }),
      z.object({ intent: z.literal("delete"), id: ruleId }),
    ],
    intentError(),
  ),
);

export async function action(args: ActionFunctionArgs) {
  return formAction(
    args,
    { schema: leadTriggerForm, role: "superuser", title: "Error saving trigger rule" },
    async (input, { actor }) => {
      const { db } = args.context;
      const now = args.context.clock();
      if (input.intent === "create") {
        await createSequenceTrigger(db, input, actor, now);
        return redirectWithToast(args.context, "/lead-triggers", { title: "Trigger rule created" });
      }
      if (input.intent === "delete") {
        await deleteSequenceTrigger(db, input.id, actor, now);
        return redirectWithToast(args.context, "/lead-triggers", { title: "Trigger rule deleted" });
      }
      await setSequenceTriggerEnabled(db, input.id, input.intent === "enable", actor, now);
      return redirectWithToast(args.context, "/lead-triggers", {
        title: input.intent === "enable" ? "Trigger rule enabled" : "Trigger rule disabled",
      });
    },
  );
}

export default function LeadTriggers() {
  const { rules, campaigns, stages } = useLoaderData<typeof loader>();
  const { form: creating, other: rowFailure } = failureByIntent(useActionData<typeof action>(), "create");
  const pending = useNavigation().state === "submitting";
  const formError = formErrorOf(creating, ["name", "on", "source", "stage", "clickedIn", "tag", "campaignId"]);
  return (
    <div className="space-y-6">
      <PageHeader
        title="Lead triggers"
        description="Start a sequence the moment a lead arrives, a contact reaches a stage, an appointment is missed, or a contact clicks a link: its first text goes out within a minute when the contact's sending hours are open, and when they open otherwise."
      />
      <CreateFormCard
        title="New rule"
        data-testid="lead-trigger-form"
        error={formError}
        submitLabel="Create rule"
        pendingLabel="Saving..."
        pending={pending}
      >
        <Field label="Name" required maxLength={MAX_RULE_NAME} {...fieldProps(creating, "name")} />
        <Field
          as="select"
          label="When"
          options={TRIGGER_CHOICES.map((c) => ({ value: c.value, label: c.label }))}
          {...fieldProps(creating, "on")}
        />
        <Field
          as="select"
          label="Stage"
          placeholder="Choose a stage"
          options={stages.map((s) => ({ value: s.key, label: s.label }))}
          hint="For “A contact moves to a stage”: by a person, a booking, or a sat appointment."
          {...fieldProps(creating, "stage")}
        />
        <Field
          as="select"
          label="Link clicked in"
          placeholder="Any text"
          options={campaigns.map((c) => ({ value: String(c.id), label: c.name }))}
          hint="For “A contact clicks a link”: the first click on a tracked link in this sequence's texts, or in any text."
          {...fieldProps(creating, "clickedIn")}
        />
        <Field
          label="Tag"
          maxLength={MAX_TAG_LENGTH}
          hint="For “A contact gets a tag”: when someone tags a contact with it (any case)."
          {...fieldProps(creating, "tag")}
        />
        <Field
          label="Lead source"
          maxLength={MAX_SOURCE}
          hint="For “A new lead arrives”: as the lead webhook receives it (EnergySage, Website…), in any case. Leave blank for any source."
          {...fieldProps(creating, "source")}
        />
        <Field
          as="select"
          label="Sequence to start"
          required
          placeholder="Choose a sequence"
          options={campaigns.map((c) => ({ value: String(c.id), label: `${c.name} (${c.status})` }))}
          {...fieldProps(creating, "campaignId")}
          hint="It must be running for leads to be enrolled; a sequence with a rule may start with no contacts."
        />
      </CreateFormCard>
      <RowsCard
        title="Rules"
        error={rowFailure?.message}
        items={rules}
        data-testid="lead-trigger-rules"
        itemTestId="lead-trigger-rule"
        empty={{
          icon: Zap,
          title: "No trigger rules yet",
          description: "Leads are stored, and no sequence starts by itself.",
        }}
        actions={(r) => (
          <div className="flex flex-wrap gap-2">
            <PostButton intent={r.enabled ? "disable" : "enable"} fields={{ id: r.id }} disabled={pending} of={r.name}>
              {r.enabled ? "Disable" : "Enable"}
            </PostButton>
            <PostButton intent="delete" fields={{ id: r.id }} variant="destructive" disabled={pending} of={r.name}>
              Delete
            </PostButton>
          </div>
        )}
      >
        {(r) => (
          <>
            <p className="font-medium break-words">{r.name}</p>
            <p className="text-sm break-words text-fg-muted">
              {r.description} → start <span className="font-medium text-fg">{r.campaignName}</span>
            </p>
            <div className="flex flex-wrap gap-2">
              <ActiveBadge active={r.enabled} />
              <Badge tone={campaignStatusTone(r.campaignStatus)}>Sequence {r.campaignStatus}</Badge>
            </div>
          </>
        )}
      </RowsCard>
    </div>
  );
}
