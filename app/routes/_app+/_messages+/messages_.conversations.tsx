import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { Link, useLoaderData, useLocation } from "@remix-run/react";
import { requireUser } from "~/http/guard.server";
import { Badge, EmptyState, PageHeader, Pager, TextLink } from "~/components/ui";
import { LocalTime } from "~/components/local-time";
import { listConversations } from "~/conversations/list-conversations.server";

export const meta: MetaFunction = () => [{ title: "Conversations — Helio" }];

/** Contacts and numbers with messages, newest activity first; "needs reply" when the latest message is inbound. */
export async function loader(args: LoaderFunctionArgs) {
  await requireUser(args);
  const url = new URL(args.request.url);
  const needsReply = url.searchParams.get("filter") === "needs-reply";
  return {
    ...(await listConversations(args.context.db, { after: url.searchParams.get("after"), needsReply })),
    needsReply,
  };
}

export default function Conversations() {
  const { conversations, nextCursor, needsReply } = useLoaderData<typeof loader>();
  const { search } = useLocation();
  return (
    <div className="space-y-6">
      <PageHeader
        title="Conversations"
        description={<TextLink to="/messages">Message Center</TextLink>}
        actions={
          <nav aria-label="Filter" className="flex gap-3 text-sm">
            <TextLink to="/messages/conversations" aria-current={!needsReply ? "page" : undefined}>
              All
            </TextLink>
            <TextLink to="/messages/conversations?filter=needs-reply" aria-current={needsReply ? "page" : undefined}>
              Needs reply
            </TextLink>
          </nav>
        }
      />
      {conversations.length === 0 ? (
        <EmptyState
          title="No conversations yet"
          description="Messages you send and replies you receive show up here."
        />
      ) : (
        <ul
          className="divide-y divide-border rounded-lg border border-border bg-surface"
          data-testid="conversation-list"
        >
          {conversations.map((c) => (
            <li key={c.id} data-testid="conversation-row" data-needs-reply={c.needsReply ? "1" : "0"}>
              <Link
                to={
                  c.contactId
                    ? `/contacts/${c.contactId}#reply`
                    : c.phone
                      ? `/messages/conversations/${encodeURIComponent(c.phone)}`
                      : "/messages"
                }
                className="flex items-start justify-between gap-3 p-3 hover:bg-muted"
              >
                <div className="min-w-0">
                  <p className="font-medium">
                    {c.contactName ?? c.phone ?? c.email}{" "}
                    {c.contactName && c.phone ? (
                      <span className="text-sm font-normal text-fg-muted">{c.phone}</span>
                    ) : null}
                  </p>
                  <p className="truncate text-sm text-fg-muted">
                    {c.lastDirection === "inbound" ? "" : "You: "}
                    {c.lastPreview}
                  </p>
                </div>
                <div className="flex shrink-0 flex-col items-end gap-1 text-xs text-fg-muted">
                  <LocalTime iso={c.lastMessageAt} />
                  {c.needsReply ? <Badge tone="warning">Needs reply</Badge> : null}
                  {c.optedOut ? <Badge tone="danger">Opted out</Badge> : null}
                </div>
              </Link>
            </li>
          ))}
        </ul>
      )}
      <Pager search={search} prev={null} next={nextCursor} nextLabel="Older" />
    </div>
  );
}
