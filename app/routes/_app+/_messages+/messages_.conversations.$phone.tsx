import { redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/cloudflare";
import { useActionData, useLoaderData } from "@remix-run/react";
import { requireUser } from "~/http/guard.server";
import { Badge, PageHeader, TextLink } from "~/components/ui";
import { ConversationCard } from "~/conversations/conversation-view";
import { openConversation } from "~/conversations/open-conversation.server";
import { QueueActions } from "~/conversations/queue-actions";
import { pickTemplate } from "~/templates/pick-template.server";
import { contactOfPhone, getThread, phoneOptedOut } from "~/conversations/get-conversation.server";
import { throwAsResponse } from "~/http/http.server";
import { REPLY_FORM_LIMIT, replyForm, replyOrReplace } from "~/http/reply-action.server";
import { formAction } from "~/http/form-action.server";
import { mentionHooks } from "~/wiring/mention-hooks.server";
import { normalizePhone } from "~/contacts/phone";
import { parseId } from "~/lib/ids";
import { listOwnerChoices } from "~/contacts/load-owner-picker.server";
import { viewerOf } from "~/contacts/contact-scope.server";
import { phoneInScope } from "~/http/contact-guard.server";

export const meta: MetaFunction = () => [{ title: "Conversation — Helio" }];

/** A number with no contact: its messages and a reply box. A number that is a contact goes to the contact's page. */
function phoneOf(params: { phone?: string }) {
  const phone = normalizePhone(params.phone ?? "");
  if (!/^\+\d{8,15}$/.test(phone)) throw new Response("Not a phone number", { status: 404 });
  return phone;
}

export async function loader(args: LoaderFunctionArgs) {
  const me = await requireUser(args);
  const { db } = args.context;
  const phone = phoneOf(args.params);
  // Another rep's contact is a 404, not a redirect that would reveal its id (decision 048).
  const contactId = await contactOfPhone(db, phone, viewerOf(me)).catch(throwAsResponse);
  if (contactId) throw redirect(`/contacts/${contactId}`);
  const before = parseId(new URL(args.request.url).searchParams.get("before"));
  const [thread, optedOut, templates, queue, users] = await Promise.all([
    getThread(db, { phone }, { before }),
    phoneOptedOut(db, phone),
    pickTemplate(db, new URL(args.request.url)),
    // Opening the conversation marks it read for this user (decision 046).
    openConversation(db, me.id, { phone }, args.context.clock()),
    listOwnerChoices(db),
  ]);
  return { phone, thread, optedOut, templates, queue, users, nonce: crypto.randomUUID() };
}

export async function action(args: ActionFunctionArgs) {
  // The thread this page shows (read after the guard: a path that is not a phone number is a 404).
  const target = () => {
    const phone = phoneOf(args.params);
    return { to: { phone }, back: `/messages/conversations/${encodeURIComponent(phone)}#reply` };
  };
  return formAction(
    args,
    {
      schema: replyForm,
      before: phoneInScope(args, () => phoneOf(args.params)),
      limit: REPLY_FORM_LIMIT,
      hide: ["picture"],
    },
    (input, { user, form }) => replyOrReplace(args, target(), input, user, mentionHooks(args.context.queue), form),
  );
}

export default function PhoneConversation() {
  const { phone, thread, optedOut, templates, queue, users, nonce } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  return (
    <div className="space-y-6">
      <PageHeader
        title={phone}
        description={
          <span className="flex gap-2">
            <TextLink to="/messages/conversations">Conversations</TextLink>
            {optedOut ? <Badge tone="danger">Opted out</Badge> : <Badge>Not a contact</Badge>}
          </span>
        }
      />
      <ConversationCard
        thread={thread}
        nonce={nonce}
        optedOut={optedOut ? "This number opted out of texts (STOP): replies are refused until it texts START." : null}
        actionData={actionData}
        templates={templates}
        queue={
          queue ? (
            <QueueActions item={queue} back={`/messages/conversations/${encodeURIComponent(phone)}`} pickTime />
          ) : null
        }
        users={users}
      />
    </div>
  );
}
