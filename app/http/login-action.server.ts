import { parseWithZod } from "@conform-to/zod";
import { data, redirect, type ActionFunctionArgs } from "@remix-run/cloudflare";
import { z } from "zod";
import { isAppError } from "~/lib/app-error";
import { clientIp, userAgent } from "~/lib/request.server";
import { redirectWithToast } from "./toast.server";
import { createAuthenticator } from "~/auth/authenticator.server";
import { issueDeviceCookie, readDeviceId } from "~/auth/device-cookie.server";
import { completeTwoFactorSignIn } from "~/auth/login.server";
import { EMAIL_TOO_LONG, loginSchema, MISSING_CREDENTIALS, PASSWORD_TOO_LONG } from "~/auth/login-schema";
import { PENDING_SIGN_IN_MS, pendingSignInCookie, readPendingSignIn } from "~/auth/pending-sign-in.server";
import { serializeSessionCookie, type SessionUser } from "~/auth/session.server";

// The second step's one field: a 6-digit code or a recovery code (xxxxx-xxxxx), typed by a person.
const codeSchema = z.object({ code: z.string().trim().min(1, "Enter the code").max(32, "Enter the code") });
const CODE_EXPIRED = "Your sign-in expired. Please sign in again.";

async function signedIn(args: ActionFunctionArgs, user: SessionUser, token: string) {
  const { request, context } = args;
  const headers = new Headers({ "Set-Cookie": serializeSessionCookie(request, token) });
  headers.append("Set-Cookie", await issueDeviceCookie(request, context.cloudflare.env.SESSION_SECRET, user.email));
  headers.append("Set-Cookie", await pendingSignInCookie(request, undefined, null));
  // A full document redirect to / (SPEC §4), carrying the success toast.
  return redirectWithToast(
    context,
    "/",
    { title: "Login successful", description: "Welcome to the product" },
    { document: true, headers },
  );
}

/** Step 2 of a two-factor sign-in (`intent=code`), or `intent=cancel` to start again with another account. */
async function codeStep(args: ActionFunctionArgs, form: FormData) {
  const { request, context } = args;
  const secret = context.cloudflare.env.SESSION_SECRET;
  const now = context.clock();
  if (form.get("intent") === "cancel")
    return redirect("/login", { headers: { "Set-Cookie": await pendingSignInCookie(request, secret, null) } });
  const fail = (status: number, message: string, headers?: HeadersInit) =>
    data(
      {
        result: undefined,
        step: "code" as const,
        codeError: message,
        failure: { title: "Login failed", description: message },
      },
      { status, headers },
    );
  const pending = await readPendingSignIn(request, secret, now);
  if (!pending)
    return redirect("/login", { headers: { "Set-Cookie": await pendingSignInCookie(request, secret, null) } });
  const parsed = codeSchema.safeParse({ code: form.get("code") ?? "" });
  if (!parsed.success) return fail(400, parsed.error.issues[0].message);
  try {
    const { user, token } = await completeTwoFactorSignIn(
      context.db,
      {
        pending,
        code: parsed.data.code,
        ipAddress: clientIp(request),
        userAgent: userAgent(request),
        deviceIdFor: (email) => readDeviceId(request, secret, email),
      },
      now,
    );
    return signedIn(args, user, token);
  } catch (err) {
    if (!isAppError(err)) throw err;
    return fail(err.status, err.message || CODE_EXPIRED);
  }
}

/**
 * The sign-in form's POST: zod checks the fields (the browser only checks they are filled), remix-auth's form
 * strategy checks the password, then the session and device cookies and a document redirect to / with the toast.
 * In a .server module so neither zod nor the auth code reaches the sign-in page's JavaScript.
 */
export async function loginAction(args: ActionFunctionArgs) {
  const { request, context } = args;
  const form = await request.clone().formData();
  if (form.get("intent") === "code" || form.get("intent") === "cancel") return codeStep(args, form);
  const submission = parseWithZod(form, { schema: loginSchema });
  if (submission.status !== "success") {
    // An over-long field says so (loginSchema's bounds); anything else is a missing field.
    const tooLong = [EMAIL_TOO_LONG, PASSWORD_TOO_LONG].find((m) =>
      Object.values(submission.error ?? {}).some((errs) => errs?.includes(m)),
    );
    return data(
      {
        result: submission.reply(),
        failure: tooLong ? { title: "Login failed", description: tooLong } : MISSING_CREDENTIALS,
      },
      { status: 400 },
    );
  }
  try {
    const secret = context.cloudflare.env.SESSION_SECRET;
    const result = await createAuthenticator(context.db, context.clock, secret).authenticate("form", request);
    if (result.pending) {
      // Password right, two-factor on: a short-lived signed cookie (not a session), then the code step (GET /login).
      const cookie = await pendingSignInCookie(request, secret, {
        ...result.pending,
        expiresAt: context.clock().getTime() + PENDING_SIGN_IN_MS,
      });
      return redirect("/login", { headers: { "Set-Cookie": cookie } });
    }
    return signedIn(args, result.user, result.token);
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
