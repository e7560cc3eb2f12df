import { WEB_MANIFEST } from "~/push/web-manifest";

/** GET /manifest.webmanifest — the installable app's manifest (decision 049): no user data, the same for everyone. */
export function loader() {
  return new Response(JSON.stringify(WEB_MANIFEST), {
    headers: { "Content-Type": "application/manifest+json; charset=utf-8", "Cache-Control": "public, max-age=3600" },
  });
}
