import type { ActionFunctionArgs } from "@remix-run/cloudflare";
import { receiveInboundSms } from "~/messaging/receive-inbound.server";
import { handleTwilioWebhook, twiml } from "~/messaging/twilio-webhook.server";
import { MAX_MEDIA_PER_MESSAGE } from "~/messaging/fetch-inbound-media.server";

/** Twilio inbound SMS webhook: no session; authenticated by X-Twilio-Signature. 503 while PUBLIC_BASE_URL is unusable. */
export async function action({ request, context }: ActionFunctionArgs) {
  const env = context.cloudflare.env;
  return handleTwilioWebhook(request, env, { db: context.db, now: context.clock() }, async (form) => {
    const sid = form.get("MessageSid") ?? form.get("SmsSid");
    const from = form.get("From");
    if (!sid || !from) return new Response("Missing MessageSid or From", { status: 400 });
    await receiveInboundSms(
      context.db,
      context.queue,
      {
        sid,
        from,
        to: form.get("To") ?? "",
        body: form.get("Body") ?? "",
        optOutType: form.get("OptOutType"),
        media: mediaOf(form),
      },
      context.clock(),
    );
    return twiml();
  });
}

/** An MMS's files: NumMedia (at most 10) pairs of MediaUrlN and MediaContentTypeN; a missing URL is skipped. */
function mediaOf(form: { get(name: string): string | null }) {
  const n = Math.min(Math.max(Number.parseInt(form.get("NumMedia") ?? "0", 10) || 0, 0), MAX_MEDIA_PER_MESSAGE);
  return Array.from({ length: n }, (_, i) => ({
    url: form.get(`MediaUrl${i}`) ?? "",
    contentType: form.get(`MediaContentType${i}`) ?? "",
  })).filter((m) => m.url);
}

export function loader() {
  return new Response("Method not allowed", { status: 405, headers: { Allow: "POST" } });
}
