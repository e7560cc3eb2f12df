import { data, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/cloudflare";
import { Form, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { z } from "zod";
import { requireUser } from "~/http/guard.server";
import {
  confirmTwoFactor,
  disableTwoFactor,
  getTwoFactorState,
  startTwoFactorEnrolment,
} from "~/auth/manage-two-factor.server";
import { Alert, Button, Card, Field, PageHeader } from "~/components/ui";
import { fieldErrorsOf } from "~/components/form-failure";
import { formAction } from "~/http/form-action.server";
import { redirectWithToast } from "~/http/toast.server";

export const meta: MetaFunction = () => [{ title: "Two-factor authentication — Helio" }];

export async function loader(args: LoaderFunctionArgs) {
  const me = await requireUser(args);
  return { ...(await getTwoFactorState(args.context.db, me.id)), required: me.mustEnrolTwoFactor };
}

const intents = z.discriminatedUnion("intent", [
  z.object({ intent: z.literal("start") }),
  z.object({ intent: z.literal("confirm"), code: z.string().trim().min(1, "Enter the 6-digit code").max(32) }),
  z.object({ intent: z.literal("disable"), password: z.string().min(1, "Enter your password").max(200) }),
]);

/** Start enrolment (a new secret), confirm it with a first code (→ the recovery codes, shown once), or turn it off. */
export async function action(args: ActionFunctionArgs) {
  return formAction(args, { schema: intents, hide: ["code", "password"] }, async (input, { user: me, actor }) => {
    const db = args.context.db;
    const now = args.context.clock();
    switch (input.intent) {
      case "start":
        await startTwoFactorEnrolment(db, me.id);
        return redirectWithToast(args.context, "/account/two-factor", {
          title: "Scan the code with your authenticator app",
        });
      case "confirm": {
        const recoveryCodes = await confirmTwoFactor(db, me.id, input.code, actor, now);
        // Shown in this response only (no-store, like every signed-in response); only their hashes are kept.
        return data({ ok: true as const, recoveryCodes });
      }
      case "disable":
        await disableTwoFactor(db, me.id, input.password, actor, now);
        return redirectWithToast(args.context, "/account", { title: "Two-factor authentication turned off" });
    }
  });
}

export default function TwoFactor() {
  const state = useLoaderData<typeof loader>();
  const reply = useActionData<typeof action>();
  const pending = useNavigation().state === "submitting";
  const err = (field: string) => fieldErrorsOf(reply, field);

  if (reply?.ok && reply.recoveryCodes) {
    return (
      <div className="max-w-xl space-y-6">
        <PageHeader title="Two-factor authentication" />
        <Alert tone="success" data-testid="two-factor-on">
          Two-factor authentication is on. From now on you sign in with your password and a code from the app.
        </Alert>
        <Card
          title="Recovery codes"
          description="Each code signs you in once if you lose your phone. Save them somewhere safe now: they are not shown again."
        >
          <ul className="grid grid-cols-2 gap-2 font-mono text-sm" data-testid="recovery-codes">
            {reply.recoveryCodes.map((c) => (
              <li key={c}>{c}</li>
            ))}
          </ul>
          <Button to="/account" className="mt-4">
            I have saved them
          </Button>
        </Card>
      </div>
    );
  }

  return (
    <div className="max-w-xl space-y-6">
      <PageHeader
        title="Two-factor authentication"
        description="After your password, Helio asks for a 6-digit code from an authenticator app on your phone."
      />
      {state.required ? (
        <Alert tone="warning" data-testid="two-factor-required">
          Your organisation requires two-factor authentication for superusers. Set it up to continue.
        </Alert>
      ) : null}
      {err("form") ? <Alert tone="danger">{err("form")}</Alert> : null}
      {state.enabled ? (
        <Card
          title="On"
          description={`Since ${new Date(state.enabledAt).toUTCString()}. Recovery codes left: ${state.recoveryCodesLeft}.`}
        >
          <Form method="post" className="space-y-3" data-testid="two-factor-disable">
            <input type="hidden" name="intent" value="disable" />
            <Field
              label="Your password"
              name="password"
              type="password"
              required
              autoComplete="current-password"
              errors={err("password")}
              hint="Needed to turn two-factor off."
            />
            <Button type="submit" variant="destructive" disabled={pending}>
              Turn off two-factor
            </Button>
          </Form>
        </Card>
      ) : state.pending ? (
        <Card
          title="Step 2: confirm"
          description="Add this key to your authenticator app (or open the link on your phone), then enter the code it shows."
        >
          <dl className="space-y-2 text-sm">
            <dt className="font-medium">Key</dt>
            <dd className="font-mono break-all" data-testid="totp-secret">
              {state.pending.secret.replace(/(.{4})/g, "$1 ").trim()}
            </dd>
            <dt className="font-medium">Link</dt>
            <dd className="break-all">
              <a href={state.pending.uri} className="text-primary underline" data-testid="totp-uri">
                {state.pending.uri}
              </a>
            </dd>
          </dl>
          <Form method="post" className="mt-4 space-y-3" data-testid="two-factor-confirm">
            <input type="hidden" name="intent" value="confirm" />
            <Field
              label="Code from the app"
              name="code"
              required
              inputMode="numeric"
              autoComplete="one-time-code"
              maxLength={6}
              errors={err("code")}
            />
            <Button type="submit" disabled={pending}>
              Turn on
            </Button>
          </Form>
        </Card>
      ) : (
        <Card title="Off">
          <Form method="post" data-testid="two-factor-start">
            <input type="hidden" name="intent" value="start" />
            <Button type="submit" disabled={pending}>
              Set up two-factor
            </Button>
          </Form>
        </Card>
      )}
    </div>
  );
}
