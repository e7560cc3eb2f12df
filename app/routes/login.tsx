import { getFormProps, getInputProps, useForm } from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod";
import { data, redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/cloudflare";
import { Form, useActionData, useNavigation } from "@remix-run/react";
import { useEffect } from "react";
import { createAuthenticator } from "~/auth/authenticator.server";
import { issueDeviceCookie } from "~/auth/device-cookie.server";
import { getOptionalUser } from "~/auth/guard.server";
import { LoginError } from "~/auth/login.server";
import { loginSchema, MISSING_CREDENTIALS } from "~/auth/login-schema";
import { serializeSessionCookie } from "~/auth/session.server";
import { useToast } from "~/components/toaster";
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
    if (!(err instanceof LoginError)) throw err;
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
    <main className="flex min-h-full items-center justify-center bg-gradient-to-br from-amber-50 to-slate-100 p-4">
      <div className="w-full max-w-sm rounded-xl border border-slate-200 bg-white p-8 shadow-sm">
        <div className="mb-6 text-center">
          <div className="text-3xl" aria-hidden="true">
            ☀
          </div>
          <h1 className="text-2xl font-bold">Helio</h1>
          <p className="text-sm text-slate-600">Solar Sales Communication Platform</p>
        </div>
        {/* Without JS the failure shows here (the toast needs JS); with JS it is a toast. */}
        {!hydrated && actionData?.failure ? (
          <div role="alert" className="mb-4 rounded-md border border-red-200 bg-red-50 p-3 text-sm text-red-700" data-testid="login-error">
            <strong>{actionData.failure.title}</strong>: {actionData.failure.description}
          </div>
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
          <div>
            <label htmlFor={fields.email.id} className="mb-1 block text-sm font-medium">
              Email
            </label>
            <input
              {...getInputProps(fields.email, { type: "email" })}
              placeholder="Enter your email"
              autoComplete="username"
              className="w-full rounded-md border border-slate-300 px-3 py-2 text-sm focus:border-amber-500 focus:outline-none"
            />
          </div>
          <div>
            <label htmlFor={fields.password.id} className="mb-1 block text-sm font-medium">
              Password
            </label>
            <input
              {...getInputProps(fields.password, { type: "password" })}
              placeholder="Enter your password"
              autoComplete="current-password"
              className="w-full rounded-md border border-slate-300 px-3 py-2 text-sm focus:border-amber-500 focus:outline-none"
            />
          </div>
          <button
            type="submit"
            disabled={pending}
            className="w-full rounded-md bg-amber-500 px-4 py-2 text-sm font-semibold text-slate-900 hover:bg-amber-600 disabled:opacity-60"
          >
            {pending ? "Signing in..." : "Sign In"}
          </button>
        </Form>
        <p className="mt-6 text-center text-xs text-slate-500">Need credentials? Contact your administrator.</p>
      </div>
      <footer className="fixed bottom-3 w-full text-center text-xs text-slate-500">Helio · Built for solar sales teams</footer>
    </main>
  );
}
