import { getFormProps, useForm } from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod";
import { data, redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/cloudflare";
import { Form, useActionData, useNavigation } from "@remix-run/react";
import { Sun } from "lucide-react";
import { useEffect } from "react";
import { createAuthenticator } from "~/auth/authenticator.server";
import { issueDeviceCookie } from "~/auth/device-cookie.server";
import { getOptionalUser } from "~/auth/guard.server";
import { loginSchema, MISSING_CREDENTIALS } from "~/auth/login-schema";
import { serializeSessionCookie } from "~/auth/session.server";
import { useToast } from "~/components/toaster";
import { isAppError } from "~/lib/app-error";
import { Alert, Button, Field } from "~/components/ui";
import { useHydrated } from "~/lib/use-hydrated";
import { redirectWithToast } from "~/toast/toast.server";

export const meta: MetaFunction = () => [{ title: "Sign in — Helio" }];

export async function loader(args: LoaderFunctionArgs) {
  if (await getOptionalUser(args)) throw redirect("/");
  return null;
}

export async function action({ request, context }: ActionFunctionArgs) {
  const form = await request.clone().formData();
  const submission = parseWithZod(form, { schema: loginSchema });
  if (submission.status !== "success") {
    return data({ result: submission.reply(), failure: MISSING_CREDENTIALS }, { status: 400 });
  }
  try {
    const secret = context.cloudflare.env.SESSION_SECRET;
    const { user, token } = await createAuthenticator(context.db, context.clock, secret).authenticate("form", request);
    const headers = new Headers({ "Set-Cookie": serializeSessionCookie(request, token) });
    headers.append("Set-Cookie", await issueDeviceCookie(request, secret, user.email));
    // A full document redirect to / (SPEC §4), carrying the success toast.
    return redirectWithToast(
      context,
      "/",
      { title: "Login successful", description: "Welcome to the product" },
      { document: true, headers },
    );
  } catch (err) {
    if (!isAppError(err)) throw err;
    return data(
      {
        result: submission.reply({ formErrors: [err.message], hideFields: ["password"] }),
        failure: { title: "Login failed", description: err.message || "Invalid email or password" },
      },
      { status: err.status },
    );
  }
}

export default function Login() {
  const actionData = useActionData<typeof action>();
  const navigation = useNavigation();
  const hydrated = useHydrated();
  const toast = useToast();
  const pending = navigation.state !== "idle" && navigation.formAction === "/login";
  const [form, fields] = useForm({
    lastResult: actionData?.result,
    constraint: getZodConstraint(loginSchema),
    shouldValidate: "onSubmit",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: loginSchema }),
  });
  const formProps = getFormProps(form);

  useEffect(() => {
    if (actionData?.failure) toast({ ...actionData.failure, variant: "destructive" });
  }, [actionData, toast]);

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
        <Form
          method="post"
          action="/login"
          {...formProps}
          onSubmit={(event) => {
            // SPEC §5: empty fields → a destructive toast and no call.
            const fd = new FormData(event.currentTarget);
            if (!String(fd.get("email") ?? "").trim() || !fd.get("password")) {
              event.preventDefault();
              toast({ ...MISSING_CREDENTIALS, variant: "destructive" });
              return;
            }
            formProps.onSubmit(event);
          }}
          className="space-y-4"
        >
          <Field label="Email" meta={fields.email} type="email" placeholder="Enter your email" autoComplete="username" />
          <Field label="Password" meta={fields.password} type="password" placeholder="Enter your password" autoComplete="current-password" />
          <Button type="submit" disabled={pending} className="w-full">
            {pending ? "Signing in..." : "Sign In"}
          </Button>
        </Form>
        <p className="mt-6 text-center text-xs text-fg-subtle">Need credentials? Contact your administrator.</p>
      </div>
      <footer className="fixed bottom-3 w-full text-center text-xs text-fg-subtle">Helio · Built for solar sales teams</footer>
    </main>
  );
}
