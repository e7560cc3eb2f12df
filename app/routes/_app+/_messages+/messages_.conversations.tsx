import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { Link, useLoaderData, useLocation, useNavigate } from "@remix-run/react";
import { z } from "zod";
import { seesAllContacts, viewerOf } from "~/contacts/contact-scope.server";
import { requireUser } from "~/http/guard.server";
import { throwAsResponse } from "~/http/http.server";
import {
  Badge,
  EmptyState,
  focusRow,
  KeyboardShortcuts,
  PageHeader,
  Pager,
  pressInRow,
  Tabs,
  TextLink,
  type Shortcut,
} from "~/components/ui";
import { LocalTime } from "~/components/local-time";
import { listConversations } from "~/conversations/list-conversations.server";
import { QUEUE_STATES, QUEUE_VIEWS, type QueueState, type QueueView } from "~/conversations/queue-views";
import { QueueActions, QueueStateBadge } from "~/conversations/queue-actions";

export const meta: MetaFunction = () => [{ title: "Conversations — Helio" }];

const VIEW_LABELS: Record<QueueView, string> = { mine: "Mine", unassigned: "Unassigned", all: "All" };
const STATE_LABELS: Record<QueueState, string> = { open: "Open", snoozed: "Snoozed", closed: "Closed" };
const LIST_ID = "conversation-list";

/**
 * The inbox as a queue (decision 046): Mine / Unassigned / All (All only for who may see everyone's), Open / Snoozed /
 * Closed, keyset-paged; each row can be closed, snoozed or reopened with plain forms.
 */
export async function loader(args: LoaderFunctionArgs) {
  const user = await requireUser(args);
  // A superuser, or everyone once the organisation lets every user see all contacts (decision 048).
  const seeAll = await seesAllContacts(viewerOf(user), args.context.db);
  const url = new URL(args.request.url);
  const view = z
    .enum(QUEUE_VIEWS)
    .catch(seeAll ? "all" : "mine")
    .parse(url.searchParams.get("view") ?? undefined);
  const state = z
    .enum(QUEUE_STATES)
    .catch("open")
    .parse(url.searchParams.get("state") ?? undefined);
  const page = await listConversations(args.context.db, {
    view,
    state,
    userId: user.id,
    seeAll,
    now: args.context.clock(),
    after: url.searchParams.get("after"),
  }).catch(throwAsResponse);
  return { ...page, view, state };
}

const href = (view: QueueView, state: QueueState) => `/messages/conversations?view=${view}&state=${state}`;

export default function Conversations() {
  const { conversations, nextCursor, view, state, views } = useLoaderData<typeof loader>();
  const { search } = useLocation();
  const navigate = useNavigate();
  const back = `/messages/conversations${search}`;
  const go = (v: QueueView, s: QueueState) => () => navigate(href(v, s));
  const shortcuts: Shortcut[] = [
    { key: "j", label: "Next conversation", run: () => focusRow(LIST_ID, 1) },
    { key: "k", label: "Previous conversation", run: () => focusRow(LIST_ID, -1) },
    { key: "e", label: "Close the selected conversation", run: () => pressInRow(LIST_ID, "[data-queue-action=close]") },
    {
      key: "s",
      label: "Snooze the selected conversation",
      run: () => pressInRow(LIST_ID, "[data-queue-action=snooze]"),
    },
    {
      key: "r",
      label: "Reopen the selected conversation",
      run: () => pressInRow(LIST_ID, "[data-queue-action=reopen]"),
    },
    { key: "m", label: "Mine", run: go("mine", state) },
    { key: "u", label: "Unassigned", run: go("unassigned", state) },
    ...(views.includes("all") ? [{ key: "a", label: "All", run: go("all", state) }] : []),
  ];
  return (
    <div className="space-y-6">
      <PageHeader
        title="Conversations"
        description={<TextLink to="/messages">Message Center</TextLink>}
        actions={<KeyboardShortcuts shortcuts={shortcuts} />}
      />
      <Tabs
        label="Queue"
        value={view}
        items={views.map((v) => ({ value: v, label: VIEW_LABELS[v], href: href(v, state) }))}
      >
        <div className="space-y-4">
          <nav aria-label="State" className="flex gap-4 text-sm" data-testid="queue-states">
            {QUEUE_STATES.map((s) => (
              <TextLink key={s} to={href(view, s)} aria-current={s === state ? "page" : undefined}>
                {STATE_LABELS[s]}
              </TextLink>
            ))}
          </nav>
          {conversations.length === 0 ? (
            <EmptyState
              title={`No ${STATE_LABELS[state].toLowerCase()} conversations`}
              description="Messages you send and replies you receive show up here."
            />
          ) : (
            <ul
              id={LIST_ID}
              className="divide-y divide-border rounded-lg border border-border bg-surface"
              data-testid="conversation-list"
            >
              {conversations.map((c) => {
                const name = c.contactName ?? c.phone ?? c.email ?? "";
                return (
                  <li
                    key={c.id}
                    data-testid="conversation-row"
                    data-shortcut-row
                    data-needs-reply={c.needsReply ? "1" : "0"}
                    data-unread={c.unread ? "1" : "0"}
                    data-state={c.state}
                    className="p-3 hover:bg-muted focus-within:bg-muted"
                  >
                    <Link
                      to={
                        c.contactId
                          ? `/contacts/${c.contactId}#reply`
                          : c.phone
                            ? `/messages/conversations/${encodeURIComponent(c.phone)}`
                            : "/messages"
                      }
                      className="flex items-start justify-between gap-3 rounded"
                    >
                      <div className="min-w-0">
                        <p className={c.unread ? "font-semibold" : "font-medium"}>
                          {c.unread ? <span className="sr-only">Unread: </span> : null}
                          {name}{" "}
                          {c.contactName && c.phone ? (
                            <span className="text-sm font-normal text-fg-muted">{c.phone}</span>
                          ) : null}
                        </p>
                        <p className="truncate text-sm text-fg-muted">
                          {c.lastDirection === "inbound" ? "" : "You: "}
                          {c.lastPreview}
                        </p>
                        {view === "all" ? (
                          <p className="text-xs text-fg-subtle">
                            {c.ownerName ? `Owner: ${c.ownerName}` : "Unassigned"}
                          </p>
                        ) : null}
                      </div>
                      <div className="flex shrink-0 flex-col items-end gap-1 text-xs text-fg-muted">
                        <LocalTime iso={c.lastMessageAt} />
                        {c.unread ? (
                          <span
                            aria-hidden="true"
                            className="size-2 rounded-full bg-primary"
                            data-testid="unread-dot"
                          />
                        ) : null}
                        {c.needsReply ? <Badge tone="warning">Needs reply</Badge> : null}
                        {c.optedOut ? <Badge tone="danger">Opted out</Badge> : null}
                        <QueueStateBadge item={c} />
                      </div>
                    </Link>
                    <QueueActions item={c} back={back} of={name} className="mt-2" />
                  </li>
                );
              })}
            </ul>
          )}
          <Pager search={search} prev={null} next={nextCursor} nextLabel={state === "snoozed" ? "Later" : "Older"} />
        </div>
      </Tabs>
    </div>
  );
}
