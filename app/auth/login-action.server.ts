import { parseWithZod } from "@conform-to/zod";
import { data, type ActionFunctionArgs } from "@remix-run/cloudflare";
import { isAppError } from "~/lib/app-error";
import { redirectWithToast } from "~/toast/toast.server";
import { createAuthenticator } from "./authenticator.server";
import { issueDeviceCookie } from "./device-cookie.server";
import { EMAIL_TOO_LONG, loginSchema, MISSING_CREDENTIALS, PASSWORD_TOO_LONG } from "./login-schema";
import { serializeSessionCookie } from "./session.server";

/**
 * The sign-in form's POST: zod checks the fields (the browser only checks they are filled), remix-auth's form
 * strategy checks the password, then the session and device cookies and a document redirect to / with the toast.
 * In a .server module so neither zod nor the auth code reaches the sign-in page's JavaScript.
 */
export async function loginAction({ request, context }: ActionFunctionArgs) {
  const form = await request.clone().formData();
  const submission = parseWithZod(form, { schema: loginSchema });
  if (submission.status !== "success") {
    // An over-long field says so (loginSchema's bounds); anything else is a missing field.
    const tooLong = [EMAIL_TOO_LONG, PASSWORD_TOO_LONG].find((m) => Object.values(submission.error ?? {}).some((errs) => errs?.includes(m)));
    return data({ result: submission.reply(), failure: tooLong ? { title: "Login failed", description: tooLong } : MISSING_CREDENTIALS }, { status: 400 });
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
