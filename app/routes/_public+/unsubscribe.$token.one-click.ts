import type { ActionFunctionArgs } from "@remix-run/cloudflare";
import { suppress } from "~/messaging/compliance.server";
import { messagingConfig } from "~/messaging/messaging-config.server";
import { verifyUnsubscribeToken } from "~/messaging/unsubscribe.server";

/**
 * RFC 8058 one-click unsubscribe (the List-Unsubscribe URL): mail providers POST here from their servers,
 * without a session; the signed token is the authority.
 */
export async function action({ params, context }: ActionFunctionArgs) {
  const email = await verifyUnsubscribeToken(
    messagingConfig(context.cloudflare.env).unsubscribeSecret,
    params.token ?? "",
  );
  if (!email) return new Response("This unsubscribe link is not valid.", { status: 404 });
  await suppress(
    context.db,
    { channel: "email", address: email, reason: "email-unsubscribe", source: "one-click" },
    context.clock(),
  );
  return new Response("You have been unsubscribed.", {
    status: 200,
    headers: { "Content-Type": "text/plain; charset=utf-8" },
  });
}

export function loader() {
  return new Response("Method not allowed", { status: 405, headers: { Allow: "POST" } });
}
