import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/cloudflare";
import { idempotencyKey } from "~/http/api.server";
import { listContactMessagesOp, sendContactSmsOp } from "~/http/api-v1/operations";
import { listContactMessages } from "~/conversations/list-contact-messages.server";
import { served, v1Route } from "~/http/api-v1/v1-route.server";
import { clientIp } from "~/lib/request.server";
import { requirePublicUrl } from "~/messaging/check-public-url.server";
import { sendIndividual } from "~/messaging/send-individual.server";
import { viewerOf } from "~/contacts/contact-scope.server";

/**
 * GET /api/v1/contacts/{id}/messages: the contact's messages, newest first (keyset-paged);
 * POST: the individual send of POST /api/messages/send-individual, as SMS.
 */
const OPS = [
  served(listContactMessagesOp, async ({ params, query }, { args, user }) => {
    const page = await listContactMessages(args.context.db, params.id, viewerOf(user), query);
    return { data: page.messages, nextCursor: page.nextCursor };
  }),
  served(sendContactSmsOp, async ({ params, body }, { args, user }) => {
    requirePublicUrl(args.context.cloudflare.env);
    return sendIndividual(
      args.context.domain(),
      { contactId: params.id, type: "sms", subject: null, message: body.message },
      { userId: user.id, role: user.role, ipAddress: clientIp(args.request) },
      idempotencyKey(args.request),
    );
  }),
];

// v1Route guards first (requireApiUser with the operation's scope).
export function loader(args: LoaderFunctionArgs) {
  return v1Route(args as ActionFunctionArgs, OPS);
}
export function action(args: ActionFunctionArgs) {
  return v1Route(args, OPS);
}
