import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { useLoaderData } from "@remix-run/react";
import { LocalTime } from "~/components/local-time";
import { Badge, Card, PageHeader, TextLink } from "~/components/ui";
import { viewerOf } from "~/contacts/contact-scope.server";
import { loadPipelineBoard } from "~/contacts/load-pipeline-board.server";
import { requireUser } from "~/http/guard.server";
import { formatCount } from "~/lib/format-count";

export const meta: MetaFunction = () => [{ title: "Pipeline — Helio" }];

/** The pipeline board (decision 053): each stage with its count and newest contacts, of the contacts the user sees. */
export async function loader(args: LoaderFunctionArgs) {
  const user = await requireUser(args);
  return { ...(await loadPipelineBoard(args.context.db, viewerOf(user))), superuser: user.role === "superuser" };
}

const OUTCOME_TONE = { open: "neutral", won: "success", lost: "danger" } as const;

export default function Pipeline() {
  const { columns, superuser } = useLoaderData<typeof loader>();
  return (
    <div className="space-y-6">
      <PageHeader
        title="Pipeline"
        description={
          <>
            Where each sale stands. Move a contact from its page; a New lead turns Contacted when its first message goes
            out. Back to <TextLink to="/contacts">Contacts</TextLink>
            {superuser ? (
              <>
                {" "}
                · <TextLink to="/pipeline-stages">Edit the stages</TextLink>
              </>
            ) : null}
            .
          </>
        }
      />
      {/* One column a stage: stacked on a phone, side by side as the screen allows. */}
      <ol className="grid gap-4 sm:grid-cols-2 xl:grid-cols-4" data-testid="pipeline">
        {columns.map((col) => (
          <li key={col.key} data-testid="pipeline-stage" data-stage={col.key}>
            <Card className="h-full">
              <div className="mb-3 flex items-center justify-between gap-2">
                <h2 className="font-semibold">{col.label}</h2>
                <Badge tone={OUTCOME_TONE[col.outcome]} data-testid="stage-count">
                  {formatCount(col.count)}
                  {col.more ? "+" : ""}
                </Badge>
              </div>
              {col.contacts.length === 0 ? (
                <p className="text-sm text-fg-muted">No contacts here.</p>
              ) : (
                <ul className="space-y-2">
                  {col.contacts.map((c) => (
                    <li key={c.id} className="min-w-0 text-sm" data-testid="pipeline-contact">
                      <TextLink to={`/contacts/${c.id}`} className="font-medium break-words">
                        {c.name || c.phone}
                      </TextLink>
                      <span className="block text-xs text-fg-muted">
                        {c.phone} · since <LocalTime iso={c.since} />
                      </span>
                    </li>
                  ))}
                </ul>
              )}
              {col.count > col.contacts.length ? (
                <p className="mt-3 text-sm">
                  <TextLink to={`/contacts?stage=${encodeURIComponent(col.key)}`}>See all in {col.label}</TextLink>
                </p>
              ) : null}
            </Card>
          </li>
        ))}
      </ol>
    </div>
  );
}
