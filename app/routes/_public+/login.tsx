import { redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/cloudflare";
import { Form, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import Sun from "lucide-react/icons/sun";
import { getOptionalUser } from "~/http/guard.server";
import { loginAction } from "~/http/login-action.server";
import { readPendingSignIn } from "~/auth/pending-sign-in.server";
import { MISSING_CREDENTIALS } from "~/auth/login-texts";
import { useFailureToast, useToast } from "~/components/toaster";
// Straight from the parts, not the kit's index: the sign-in page should not download every dialog and tab.
import { Alert } from "~/components/ui/alert";
import { Button } from "~/components/ui/button";
import { Field } from "~/components/ui/field";
import { useHydrated } from "~/lib/use-hydrated";

export const meta: MetaFunction = () => [{ title: "Sign in — Helio" }];

/** `step: "code"` while this browser holds a pending two-factor sign-in (the password was right). */
export async function loader(args: LoaderFunctionArgs) {
  if (await getOptionalUser(args)) throw redirect("/");
  const pending = await readPendingSignIn(
    args.request,
    args.context.cloudflare.env.SESSION_SECRET,
    args.context.clock(),
  );
  return { step: pending ? ("code" as const) : ("password" as const) };
}

/** Public on purpose (tests/route-guards.ts): this is where a session starts. */
export async function action(args: ActionFunctionArgs) {
  return loginAction(args);
}

export default function Login() {
  const { step } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const navigation = useNavigation();
  const hydrated = useHydrated();
  const toast = useToast();
  const pending = navigation.state !== "idle" && navigation.formAction === "/login";
  // Checked on the server with loginSchema; in the browser the two required fields are all there is to check
  // (onSubmit below), so neither zod nor conform's form state is in this page's JavaScript (issue 15's byte budget).
  // The server's conform reply still drives the fields: their errors, and the email typed (never the password).
  const result = actionData && "result" in actionData ? actionData.result : undefined;
  const codeError = actionData && "codeError" in actionData ? actionData.codeError : undefined;
  const fieldErrors = (name: string) => result?.error?.[name] ?? null;

  useFailureToast(actionData, actionData?.failure);

  return (
    <main className="flex min-h-full items-center justify-center bg-gradient-to-br from-primary-soft to-muted p-4">
      <div className="w-full max-w-sm rounded-xl border border-border bg-surface p-8 shadow-sm">
        <div className="mb-6 text-center">
          <Sun aria-hidden="true" className="mx-auto size-8 text-primary" />
          <h1 className="text-2xl font-bold">Helio</h1>
          <p className="text-sm text-fg-muted">Solar Sales Communication Platform</p>
        </div>
        {/* Without JS the failure shows here (the toast needs JS); with JS it is a toast. */}
        {!hydrated && actionData?.failure ? (
          <Alert tone="danger" className="mb-4" data-testid="login-error">
            <strong>{actionData.failure.title}</strong>: {actionData.failure.description}
          </Alert>
        ) : null}
        {step === "code" ? (
          <>
            <Form method="post" action="/login" className="space-y-4" data-testid="two-factor-form">
              <input type="hidden" name="intent" value="code" />
              <p className="text-sm text-fg-muted">Two-factor authentication is on for this account.</p>
              <Field
                label="Authentication code"
                name="code"
                required
                autoComplete="one-time-code"
                inputMode="text"
                maxLength={32}
                errors={codeError ? [codeError] : null}
                hint="The 6-digit code from your authenticator app, or one of your recovery codes."
              />
              <Button type="submit" disabled={pending} className="w-full">
                {pending ? "Verifying..." : "Verify"}
              </Button>
            </Form>
            <Form method="post" action="/login" className="mt-3 text-center">
              <input type="hidden" name="intent" value="cancel" />
              <button type="submit" className="text-xs text-fg-muted underline">
                Use a different account
              </button>
            </Form>
          </>
        ) : (
          <Form
            method="post"
            action="/login"
            noValidate
            onSubmit={(event) => {
              // SPEC §5: empty fields → a destructive toast and no call.
              const fd = new FormData(event.currentTarget);
              if (!String(fd.get("email") ?? "").trim() || !fd.get("password")) {
                event.preventDefault();
                toast({ ...MISSING_CREDENTIALS, variant: "destructive" });
              }
            }}
            className="space-y-4"
          >
            <Field
              label="Email"
              name="email"
              type="email"
              required
              defaultValue={typeof result?.initialValue?.email === "string" ? result.initialValue.email : undefined}
              errors={fieldErrors("email")}
              placeholder="Enter your email"
              autoComplete="username"
            />
            <Field
              label="Password"
              name="password"
              type="password"
              required
              errors={fieldErrors("password")}
              placeholder="Enter your password"
              autoComplete="current-password"
            />
            <Button type="submit" disabled={pending} className="w-full">
              {pending ? "Signing in..." : "Sign In"}
            </Button>
          </Form>
        )}
        <p className="mt-6 text-center text-xs text-fg-subtle">Need credentials? Contact your administrator.</p>
      </div>
      <footer className="fixed bottom-3 w-full text-center text-xs text-fg-subtle">
        Helio · Built for solar sales teams
      </footer>
    </main>
  );
}
