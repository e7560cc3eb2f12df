import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { useLoaderData } from "@remix-run/react";
import { AtSign } from "lucide-react";
import { requireUser } from "~/http/guard.server";
import { LocalTime } from "~/components/local-time";
import { Card, EmptyState, PageHeader, TextLink } from "~/components/ui";
import { listMentions } from "~/conversations/list-mentions.server";
import { MENTIONS_SHOWN } from "~/conversations/mentions";

export const meta: MetaFunction = () => [{ title: "Mentions — Helio" }];

/** The internal notes that @mention the signed-in user, newest first, each linking to its conversation (decision 047). */
export async function loader(args: LoaderFunctionArgs) {
  const user = await requireUser(args);
  return { mentions: await listMentions(args.context.db, user.id) };
}

export default function Mentions() {
  const { mentions } = useLoaderData<typeof loader>();
  return (
    <div className="space-y-6">
      <PageHeader
        title="Mentions"
        description={
          <>
            Internal notes where a teammate mentioned you (the latest {MENTIONS_SHOWN}). Back to{" "}
            <TextLink to="/messages/conversations">Conversations</TextLink>.
          </>
        }
      />
      {mentions.length === 0 ? (
        <EmptyState
          icon={AtSign}
          title="No mentions yet"
          description="When a teammate @mentions you in a note, it shows here."
        />
      ) : (
        <ul className="space-y-3" data-testid="mentions">
          {mentions.map((m) => (
            <li key={m.id} data-testid="mention">
              <Card>
                <div className="mb-1 flex flex-wrap items-center gap-2 text-xs text-fg-muted">
                  <TextLink to={`${m.path}#thread`} className="font-medium">
                    {m.conversation}
                  </TextLink>
                  {m.author ? <span>{m.author}</span> : null}
                  <LocalTime iso={m.createdAt} />
                </div>
                <p className="whitespace-pre-wrap break-words text-sm">{m.body}</p>
              </Card>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
