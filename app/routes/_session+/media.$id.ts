import type { LoaderFunctionArgs } from "@remix-run/cloudflare";
import { viewerOf } from "~/contacts/contact-scope.server";
import { requireUser } from "~/http/guard.server";
import { routeId, throwAsResponse } from "~/http/http.server";
import { getInboundMedia, MEDIA_NOT_FOUND } from "~/messaging/get-inbound-media.server";

/**
 * GET /media/:id — a picture or PDF a lead texted in (decision 057), from R2, for a signed-in user who sees the
 * conversation. Served as an inert document: its stored type only, no sniffing, sandboxed, never cached publicly.
 */
export async function loader(args: LoaderFunctionArgs) {
  const user = await requireUser(args);
  const media = await getInboundMedia(
    args.context.db,
    args.context.cloudflare.env.MEDIA,
    routeId(args.params.id, MEDIA_NOT_FOUND),
    viewerOf(user),
  ).catch(throwAsResponse);
  return new Response(media.body, {
    headers: {
      "Content-Type": media.contentType,
      ...(media.size === null ? {} : { "Content-Length": String(media.size) }),
      "Content-Disposition": "inline",
      "X-Content-Type-Options": "nosniff",
      "Content-Security-Policy": "default-src 'none'; sandbox",
      "Cache-Control": "private, max-age=3600",
    },
  });
}
