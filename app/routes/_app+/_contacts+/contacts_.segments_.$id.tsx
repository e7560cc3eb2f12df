import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { Form, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { Megaphone, Send, Users } from "lucide-react";
import { z } from "zod";
import { formErrorOf } from "~/components/form-failure";
import { Alert, Badge, Button, Card, EmptyState, PageHeader, PostButton, TextLink } from "~/components/ui";
import { formAction } from "~/http/form-action.server";
import { intentError } from "~/http/form-schema";
import { requireUser } from "~/http/guard.server";
import { redirectWithToast } from "~/http/toast.server";
import { zodId } from "~/lib/ids";
import { routeId, throwAsResponse } from "~/http/http.server";
import { formatCount } from "~/lib/format-count";
import { viewerOf } from "~/contacts/contact-scope.server";
import { deleteSegment } from "~/segments/delete-segment.server";
import { loadSegmentPage } from "~/segments/load-segments-page.server";
import { saveSegment } from "~/segments/save-segment.server";
import { SegmentFields } from "~/segments/segment-fields";
import { readSegmentForm, segmentFormFields } from "~/segments/segment-form";
import { SEGMENT_NOT_FOUND } from "~/segments/segment-access.server";

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: `${data?.segment.name ?? "Segment"} — Helio` },
];

/** One segment: who is in it now (as the viewer sees them, newest first, keyset pages), its form, its uses. */
export async function loader(args: LoaderFunctionArgs) {
  const user = await requireUser(args);
  const after = zodId()
    .optional()
    .catch(undefined)
    .parse(new URL(args.request.url).searchParams.get("after") ?? undefined);
  return loadSegmentPage(
    args.context.db,
    routeId(args.params.id, SEGMENT_NOT_FOUND),
    { ...viewerOf(user), userId: user.id, role: user.role },
    { after, now: args.context.clock() },
  ).catch(throwAsResponse);
}

const SAVE_ERROR = "Segment not saved";
const detailForm = z
  .discriminatedUnion(
    "intent",
    [z.object({ intent: z.literal("update"), ...segmentFormFields }), z.object({ intent: z.literal("delete") })],
    intentError(),
  )
  .transform((f, ctx) => {
    if (f.intent === "delete") return { intent: "delete" as const };
    const read = readSegmentForm(f, ctx);
    return read === z.NEVER ? z.NEVER : { intent: "update" as const, ...read };
  });

export async function action(args: ActionFunctionArgs) {
  return formAction(args, { schema: detailForm, title: SAVE_ERROR }, async (input, { actor, user }) => {
    const id = routeId(args.params.id, SEGMENT_NOT_FOUND);
    const who = { ...actor, role: user.role };
    const now = args.context.clock();
    if (input.intent === "delete") {
      await deleteSegment(args.context.db, id, who, now);
      return redirectWithToast(args.context, "/contacts/segments", { title: "Segment deleted" });
    }
    await saveSegment(args.context.db, { id, name: input.name, definition: input.definition }, who, now);
    return redirectWithToast(args.context, `/contacts/segments/${id}`, {
      title: "Segment saved",
      description: input.name,
    });
  });
}

export default function SegmentPage() {
  const d = useLoaderData<typeof loader>();
  const reply = useActionData<typeof action>();
  const pending = useNavigation().state === "submitting";
  const { segment, preview } = d;
  return (
    <div className="space-y-6">
      <PageHeader
        title={segment.name}
        description={
          <>
            <span data-testid="segment-summary">{d.summary}</span>. Back to{" "}
            <TextLink to="/contacts/segments">Segments</TextLink>.
          </>
        }
        actions={
          <>
            <Button to={`/campaigns/new?segmentId=${segment.id}`} variant="secondary" icon={Megaphone}>
              New campaign
            </Button>
            <Button to={`/testing?tab=broadcast&segmentId=${segment.id}`} variant="secondary" icon={Send}>
              Broadcast
            </Button>
          </>
        }
      />
      <Card
        title="In this segment now"
        description={
          d.scoped
            ? "Your contacts and those with no owner. A send reads the segment again when it goes out."
            : "A send reads the segment again when it goes out."
        }
      >
        <p className="mb-3 flex items-center gap-2 text-sm">
          <Badge tone="neutral">
            <span data-testid="segment-count">{formatCount(preview.count)}</span>
          </Badge>
          {preview.count === 1 ? "contact" : "contacts"}
        </p>
        {preview.contacts.length === 0 ? (
          <EmptyState icon={Users} title="Nobody fits it right now" description="Contacts join as they come to fit." />
        ) : (
          <ul className="divide-y divide-border" data-testid="segment-members">
            {preview.contacts.map((c) => (
              <li key={c.id} className="flex min-w-0 flex-wrap items-baseline justify-between gap-x-3 py-2 text-sm">
                <TextLink to={`/contacts/${c.id}`} className="font-medium break-words">
                  {`${c.firstName} ${c.lastName}`.trim() || c.phone}
                </TextLink>
                <span className="text-fg-muted">{[c.phone, c.zipCode].filter(Boolean).join(" · ")}</span>
              </li>
            ))}
          </ul>
        )}
        {preview.nextCursor !== null ? (
          <p className="mt-3 text-sm">
            <TextLink to={`?after=${preview.nextCursor}`} data-testid="segment-more">
              More contacts
            </TextLink>
          </p>
        ) : null}
      </Card>
      {d.mayEdit ? (
        <Card title="Edit segment">
          <Form method="post" className="max-w-lg space-y-4" data-testid="segment-edit">
            <input type="hidden" name="intent" value="update" />
            {formErrorOf(reply, ["name", "stages", "tags", "owner", "touchDays", "value"]) ? (
              <Alert tone="danger">
                {formErrorOf(reply, ["name", "stages", "tags", "owner", "touchDays", "value"])}
              </Alert>
            ) : null}
            <SegmentFields
              name={segment.name}
              definition={segment.definition}
              reply={reply}
              stages={d.stages}
              owners={d.owners}
              idPrefix="edit"
            />
            <Button type="submit" disabled={pending}>
              {pending ? "Saving..." : "Save segment"}
            </Button>
          </Form>
          <div className="mt-4">
            <PostButton intent="delete" variant="destructive" disabled={pending} of={segment.name}>
              Delete segment
            </PostButton>
          </div>
        </Card>
      ) : null}
    </div>
  );
}
