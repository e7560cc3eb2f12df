import type { ActionFunctionArgs } from "@remix-run/cloudflare";
import { recordStatusUpdates } from "~/messaging/record-status.server";
import { handleTwilioWebhook } from "~/messaging/twilio-webhook.server";

/** Twilio status callback: forward-only status changes, idempotent. 503 while PUBLIC_BASE_URL is unusable, 403 unsigned. */
export async function action({ request, context }: ActionFunctionArgs) {
  return handleTwilioWebhook(
    request,
    context.cloudflare.env,
    { db: context.db, now: context.clock() },
    async (form) => {
      const sid = form.get("MessageSid") ?? form.get("SmsSid");
      const status = form.get("MessageStatus") ?? form.get("SmsStatus");
      if (!sid || !status) return new Response("Missing MessageSid or MessageStatus", { status: 400 });
      const domain = context.domain();
      await recordStatusUpdates(
        domain.db,
        [{ sid, status, errorCode: form.get("ErrorCode"), errorMessage: form.get("ErrorMessage") }],
        domain.now,
        domain,
      );
      return new Response(null, { status: 204 });
    },
  );
}

export function loader() {
  return new Response("Method not allowed", { status: 405, headers: { Allow: "POST" } });
}
