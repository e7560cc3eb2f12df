import type { LoaderFunctionArgs } from "@remix-run/cloudflare";
import { throwAsResponse } from "~/http/http.server";
import { messagingConfig } from "~/messaging/messaging-config.server";
import { PICTURE_NOT_FOUND, readOutboundPicture } from "~/messaging/outbound-pictures.server";

/**
 * GET /mms/:token — a picture Helio sent as MMS (decision 076), for Twilio to fetch when it sends: no login, the
 * signature over the message and position is the authority (a forged token is a 404, like a missing one). Served as an
 * inert document: its checked type only, no sniffing, sandboxed, not indexed.
 */
export async function loader({ params, context }: LoaderFunctionArgs) {
  const secret = messagingConfig(context.cloudflare.env).linkSecret;
  if (!secret) throw new Response(PICTURE_NOT_FOUND, { status: 404 });
  const picture = await readOutboundPicture(
    context.db,
    context.cloudflare.env.MEDIA,
    secret,
    String(params.token ?? "").slice(0, 80),
  ).catch(throwAsResponse);
  return new Response(picture.body, {
    headers: {
      "Content-Type": picture.contentType,
      "Content-Length": String(picture.size),
      "Content-Disposition": "inline",
      "X-Content-Type-Options": "nosniff",
      "Content-Security-Policy": "default-src 'none'; sandbox",
      "Cache-Control": "private, max-age=86400",
      "X-Robots-Tag": "noindex",
    },
  });
}
