import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { Form, useActionData, useLoaderData } from "@remix-run/react";
import { Button } from "~/components/ui";
import { suppress } from "~/messaging/compliance.server";
import { messagingConfig } from "~/messaging/messaging-config.server";
import { verifyUnsubscribeToken } from "~/messaging/unsubscribe.server";

export const meta: MetaFunction = () => [{ title: "Unsubscribe — Helio" }];

// No login: the signed token is the authority. GET only asks (mail scanners follow links); POST acts,
// including RFC 8058 one-click posts from mail clients.
async function addressFor(params: { token?: string }, env: Env) {
  const email = await verifyUnsubscribeToken(messagingConfig(env).unsubscribeSecret, params.token ?? "");
  if (!email) throw new Response("This unsubscribe link is not valid.", { status: 404 });
  return email;
}

export async function loader({ params, context }: LoaderFunctionArgs) {
  return { email: await addressFor(params, context.cloudflare.env) };
}

export async function action({ params, context }: ActionFunctionArgs) {
  const email = await addressFor(params, context.cloudflare.env);
  await suppress(
    context.db,
    { channel: "email", address: email, reason: "email-unsubscribe", source: "link" },
    context.clock(),
  );
  return { done: true as const, email };
}

export default function Unsubscribe() {
  const { email } = useLoaderData<typeof loader>();
  const done = useActionData<typeof action>()?.done;
  return (
    <main className="flex min-h-full items-center justify-center p-4">
      <div className="w-full max-w-md rounded-xl border border-border bg-surface p-8 text-center shadow-sm">
        <h1 className="text-xl font-bold">{done ? "You have been unsubscribed" : "Unsubscribe from emails"}</h1>
        {done ? (
          <p className="mt-3 text-fg-muted">
            <strong>{email}</strong> will receive no more marketing emails from us.
          </p>
        ) : (
          <>
            <p className="mt-3 text-fg-muted">
              Stop marketing emails to <strong>{email}</strong>?
            </p>
            <Form method="post" className="mt-6">
              <Button type="submit">Unsubscribe</Button>
            </Form>
          </>
        )}
      </div>
    </main>
  );
}
