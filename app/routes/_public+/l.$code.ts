import type { LoaderFunctionArgs } from "@remix-run/cloudflare";
import { readSessionToken } from "~/auth/session.server";
import { AppError } from "~/lib/app-error";
import { followTrackedLink, LINK_EXPIRED } from "~/messaging/follow-tracked-link.server";
import { messagingConfig } from "~/messaging/messaging-config.server";
import { isBotUserAgent } from "~/messaging/tracked-links";

// A tracked link in a text (decision 068): no login — the signed code is the authority, and the destination comes
// from the message it names, so this never redirects anywhere a request asks. One redirect, no page in between.
// A person's click counts; a link preview, a bot, a HEAD or a signed-in teammate opening it from Helio does not.
export async function loader({ request, params, context }: LoaderFunctionArgs) {
  const countable =
    request.method === "GET" &&
    !isBotUserAgent(request.headers.get("User-Agent")) &&
    readSessionToken(request) === null;
  try {
    const { url } = await followTrackedLink(
      {
        db: context.db,
        queue: context.queue,
        now: context.clock(),
        secret: messagingConfig(context.cloudflare.env).linkSecret,
      },
      String(params.code ?? "").slice(0, 40),
      { countable },
    );
    return new Response(null, {
      status: 302,
      headers: {
        Location: url,
        "Cache-Control": "private, no-store",
        // The destination need not learn the code (it names one homeowner's text).
        "Referrer-Policy": "no-referrer",
        "X-Robots-Tag": "noindex",
      },
    });
  } catch (err) {
    if (!(err instanceof AppError) || err.code !== "not_found") throw err;
    return new Response(err.message, {
      status: err.message === LINK_EXPIRED ? 410 : 404,
      headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store", "X-Robots-Tag": "noindex" },
    });
  }
}
