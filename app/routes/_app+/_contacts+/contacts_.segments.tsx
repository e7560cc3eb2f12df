import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { Filter } from "lucide-react";
import { failureByIntent, formErrorOf } from "~/components/form-failure";
import { CreateFormCard, PageHeader, RowsCard, TextLink } from "~/components/ui";
import { formAction } from "~/http/form-action.server";
import { requireUser } from "~/http/guard.server";
import { redirectWithToast } from "~/http/toast.server";
import { loadSegmentsPage } from "~/segments/load-segments-page.server";
import { saveSegment } from "~/segments/save-segment.server";
import { SegmentFields } from "~/segments/segment-fields";
import { segmentForm } from "~/segments/segment-form";

export const meta: MetaFunction = () => [{ title: "Segments — Helio" }];

/** Saved segments (decision 075): every user sees and uses the team's; its creator or a superuser changes one. */
export async function loader(args: LoaderFunctionArgs) {
  const user = await requireUser(args);
  return loadSegmentsPage(args.context.db, { userId: user.id, role: user.role });
}

const SAVE_ERROR = "Segment not saved";

export async function action(args: ActionFunctionArgs) {
  return formAction(args, { schema: segmentForm, title: SAVE_ERROR }, async (input, { actor, user }) => {
    const s = await saveSegment(args.context.db, input, { ...actor, role: user.role }, args.context.clock());
    return redirectWithToast(args.context, `/contacts/segments/${s.id}`, {
      title: "Segment saved",
      description: input.name,
    });
  });
}

export default function Segments() {
  const { segments, stages, owners } = useLoaderData<typeof loader>();
  const reply = useActionData<typeof action>();
  const { form: creating } = failureByIntent(reply, "create");
  const pending = useNavigation().state === "submitting";
  return (
    <div className="space-y-6">
      <PageHeader
        title="Segments"
        description={
          <>
            Saved filters over your contacts — “no message in 30 days”, “sat, not sold, in 94…” — to use as a campaign’s
            or a broadcast’s audience. Who is in one is worked out each time it is used. Back to{" "}
            <TextLink to="/contacts">Contacts</TextLink>.
          </>
        }
      />
      <RowsCard
        title="Saved segments"
        items={segments}
        data-testid="segments"
        itemTestId="segment-row"
        empty={{ icon: Filter, title: "No segments yet", description: "Save the first one below." }}
      >
        {(s) => (
          <div className="min-w-0">
            <TextLink to={`/contacts/segments/${s.id}`} className="font-medium break-words">
              {s.name}
            </TextLink>
            <p className="text-sm break-words text-fg-muted">{s.summary}</p>
          </div>
        )}
      </RowsCard>
      <CreateFormCard
        title="New segment"
        data-testid="segment-form"
        error={formErrorOf(creating ?? reply, ["name", "stages", "tags", "owner", "touchDays", "value"])}
        submitLabel="Save segment"
        pendingLabel="Saving..."
        pending={pending}
      >
        <SegmentFields name="" definition={null} reply={reply} stages={stages} owners={owners} idPrefix="new" />
      </CreateFormCard>
    </div>
  );
}
