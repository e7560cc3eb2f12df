import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { Form, Outlet, useLoaderData, useLocation, useNavigation } from "@remix-run/react";
import { ClipboardCheck, ListOrdered, Megaphone, Pause, Pencil, Play, Plus, Trash2, UserPlus } from "lucide-react";
import { z } from "zod";
import { requireUser } from "~/http/guard.server";
import { CAMPAIGN_NOT_FOUND, TOASTS } from "~/campaigns/campaign-schema";
import type { PublicCampaign } from "~/campaigns/get-campaign.server";
import { listCampaigns } from "~/campaigns/list-campaigns.server";
import { pauseCampaign } from "~/campaigns/pause-campaign.server";
import { startCampaign } from "~/campaigns/start-campaign.server";
import {
  Badge,
  Button,
  Card,
  campaignStatusTone,
  EmptyState,
  HiddenFields,
  PageHeader,
  Pager,
  ProgressBar,
  TextLink,
} from "~/components/ui";
import { searchParamsOf } from "~/http/api.server";
import { STATUS_BY_CODE } from "~/lib/app-error";
import { formAction } from "~/http/form-action.server";
import { intentError } from "~/http/form-schema";
import { routeId } from "~/http/http.server";
import { zodId } from "~/lib/ids";
import { redirectWithToast } from "~/http/toast.server";
import { requirePublicUrl } from "~/messaging/check-public-url.server";
import { formatCount } from "~/lib/format-count";
import { listSegmentChoices } from "~/segments/list-segments.server";

// Made once: toLocaleDateString with options builds a new Intl.DateTimeFormat per card.
const CREATED_DATE = new Intl.DateTimeFormat("en-US", {
  month: "short",
  day: "numeric",
  year: "numeric",
  timeZone: "UTC",
});

export const meta: MetaFunction = () => [{ title: "Campaign Sequences — Helio" }];

const listQuery = z.object({ after: zodId().optional().catch(undefined) });

export async function loader(args: LoaderFunctionArgs) {
  await requireUser(args);
  const { after } = listQuery.parse(searchParamsOf(args.request));
  const [page, segments] = await Promise.all([
    listCampaigns(args.context.db, { after, limit: 24 }),
    listSegmentChoices(args.context.db),
  ]);
  // A segment audience is named on its card (a handful of rows, capped).
  const segmentNames = Object.fromEntries(segments.map((s) => [s.id, s.name]));
  return { campaigns: page.items, nextCursor: page.nextCursor, after: after ?? null, segmentNames };
}

const intent = z.object({
  intent: z.enum(["start", "pause"], intentError()),
  id: z.string().max(20),
  resume: z.string().max(10).optional(),
});
const DONE = { start: "Campaign started", resume: "Campaign resumed", pause: "Campaign paused" } as const;

/** The card's Start/Resume and Pause buttons (plain POST forms): one domain call, then back to the list with a toast. */
export async function action(args: ActionFunctionArgs) {
  const { request, context } = args;
  const back = `/campaigns${new URL(request.url).search}`;
  return formAction(
    args,
    {
      schema: intent,
      // SPEC §8: the destructive toast shows the server's message; a redirect carries it, so it shows without JS too.
      failureRedirect: (f) =>
        redirectWithToast(context, back, {
          title: TOASTS[f.intent === "pause" ? "pause" : "start"],
          description: `${STATUS_BY_CODE[f.code]}: ${f.message}`,
          variant: "destructive",
        }),
    },
    async (input, { actor }) => {
      const id = routeId(input.id, CAMPAIGN_NOT_FOUND);
      if (input.intent === "start") {
        requirePublicUrl(context.cloudflare.env);
        const c = await startCampaign(context.db, context.queue, id, actor, context.clock());
        return redirectWithToast(context, back, {
          title: input.resume ? DONE.resume : DONE.start,
          description: c.name,
        });
      }
      const c = await pauseCampaign(context.db, id, actor, context.clock());
      return redirectWithToast(context, back, { title: DONE.pause, description: c.name });
    },
  );
}

export default function Campaigns() {
  const { campaigns, nextCursor, after, segmentNames } = useLoaderData<typeof loader>();
  const { search } = useLocation();
  return (
    <section className="mx-auto max-w-7xl space-y-4">
      <PageHeader
        title="Campaign Sequences"
        description={<p>Multi-step SMS and email sequences with timed steps.</p>}
        actions={
          <Button to="/campaigns/new" preventScrollReset icon={Plus}>
            Create Campaign
          </Button>
        }
      />
      {campaigns.length === 0 ? (
        <Card className="p-0">
          <EmptyState
            data-testid="campaigns-empty"
            icon={Megaphone}
            title="No campaign sequences yet"
            description="Create a campaign, add its steps and start it."
            action={<Button to="/campaigns/new">Create Your First Sequence</Button>}
          />
        </Card>
      ) : (
        <ul className="grid gap-4 md:grid-cols-2 xl:grid-cols-3" data-testid="campaign-grid">
          {campaigns.map((c) => (
            <li key={c.id}>
              <CampaignCard c={c} search={search} segmentName={c.segmentId ? segmentNames[c.segmentId] : undefined} />
            </li>
          ))}
        </ul>
      )}
      {/* listCampaigns pages forward only (newest first): "First page" drops the cursor. */}
      <Pager search={search} prev={after ? "first" : null} prevLabel="First page" next={nextCursor} />
      <Outlet />
    </section>
  );
}

function CampaignCard({ c, search, segmentName }: { c: PublicCampaign; search: string; segmentName?: string }) {
  const navigation = useNavigation();
  const busy = navigation.state === "submitting" && navigation.formData?.get("id") === String(c.id);
  const p = c.progress;
  const action =
    c.status === "draft" || c.status === "paused"
      ? c.status === "paused"
        ? "Resume"
        : "Start"
      : c.status === "running"
        ? "Pause"
        : null;
  return (
    <article
      className="flex h-full flex-col rounded-lg border border-border bg-surface p-4"
      data-testid="campaign-card"
      aria-label={c.name}
    >
      <div className="flex items-start justify-between gap-2">
        <h3 className="font-semibold break-words">{c.name}</h3>
        <Badge tone={campaignStatusTone(c.status)}>{c.status}</Badge>
      </div>
      {c.description ? <p className="mt-1 line-clamp-2 text-sm text-fg-muted">{c.description}</p> : null}
      <dl className="mt-3 grid grid-cols-2 gap-x-4 gap-y-1 text-sm">
        <dt className="text-fg-muted">Contacts</dt>
        <dd data-testid="campaign-contacts">
          {/* "Select all" on a draft is an audience enrolled when it starts: 0 would read as "nobody" (issue 24). */}
          {c.contactCount === 0 && c.segmentId !== null && c.status === "draft"
            ? `Segment “${segmentName ?? "deleted"}”, at start`
            : c.contactCount === 0 && c.audienceQuery !== null && c.status === "draft"
              ? c.audienceQuery === ""
                ? "Every contact, at start"
                : `Matching “${c.audienceQuery}”, at start`
              : formatCount(c.contactCount)}
        </dd>
        <dt className="text-fg-muted">Created</dt>
        <dd>{CREATED_DATE.format(new Date(c.createdAt))}</dd>
        <dt className="text-fg-muted">Sent / delivered</dt>
        <dd>
          {formatCount(c.sentCount)} / {formatCount(c.deliveredCount)}
        </dd>
        <dt className="text-fg-muted">Responses</dt>
        <dd>{formatCount(c.responseCount)}</dd>
        <dt className="text-fg-muted">Link clicks</dt>
        <dd data-testid="campaign-clicks">{formatCount(c.clickCount)}</dd>
        {c.scheduledAt ? (
          <>
            <dt className="text-fg-muted">Starts</dt>
            <dd>{new Date(c.scheduledAt).toISOString().slice(0, 16).replace("T", " ")} UTC</dd>
          </>
        ) : null}
      </dl>
      <ProgressBar
        className="mt-3"
        label="Progress"
        total={p.enrolled}
        parts={[
          { label: "waiting", value: p.waiting, tone: "primary" },
          { label: "finished", value: p.finished, tone: "success" },
          { label: "stopped", value: p.stopped, tone: "warning" },
        ]}
      />
      {p.enrolling ? (
        <p className="mt-1 text-xs text-fg-muted" role="status">
          enrolling…
        </p>
      ) : null}
      <div className="mt-auto flex flex-wrap items-center gap-2 pt-4">
        {action ? (
          <Form method="post" action={`/campaigns${search}`} preventScrollReset>
            <HiddenFields
              fields={{
                id: c.id,
                intent: action === "Pause" ? "pause" : "start",
                resume: action === "Resume" ? "1" : null,
              }}
            />
            <Button
              type="submit"
              size="sm"
              variant={action === "Pause" ? "secondary" : "primary"}
              icon={action === "Pause" ? Pause : Play}
              disabled={busy}
              aria-label={`${action} ${c.name}`}
            >
              {action}
            </Button>
          </Form>
        ) : null}
        <Button
          to={`/campaigns/${c.id}/steps${search}`}
          preventScrollReset
          size="sm"
          variant="outline"
          icon={ListOrdered}
          aria-label={`View Steps of ${c.name}`}
        >
          View Steps
        </Button>
        {c.status !== "completed" ? (
          <TextLink
            to={`/campaigns/${c.id}/contacts${search}`}
            preventScrollReset
            aria-label={`Add contacts to ${c.name}`}
          >
            <UserPlus aria-hidden="true" className="mr-1 inline size-4" />
            Add contacts
          </TextLink>
        ) : null}
        {c.status === "draft" ? (
          <TextLink
            to={`/campaigns/${c.id}/check${search}`}
            preventScrollReset
            aria-label={`Check ${c.name} before starting`}
          >
            <ClipboardCheck aria-hidden="true" className="mr-1 inline size-4" />
            Check
          </TextLink>
        ) : null}
        <TextLink to={`/campaigns/${c.id}/edit${search}`} preventScrollReset aria-label={`Edit ${c.name}`}>
          <Pencil aria-hidden="true" className="mr-1 inline size-4" />
          Edit
        </TextLink>
        {c.status === "draft" ? (
          <TextLink
            tone="danger"
            to={`/campaigns/${c.id}/delete${search}`}
            preventScrollReset
            aria-label={`Delete ${c.name}`}
          >
            <Trash2 aria-hidden="true" className="mr-1 inline size-4" />
            Delete
          </TextLink>
        ) : null}
      </div>
    </article>
  );
}
