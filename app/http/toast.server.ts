import { createCookie, redirect, redirectDocument, type AppLoadContext } from "@remix-run/cloudflare";
import { toastSchema, type Toast, type ToastInput } from "~/toast/toast";

// A one-shot signed cookie: the toast survives the redirect (so it shows without JS too),
// then the next document/loader read clears it.
function toastCookie(context: AppLoadContext) {
  const secret = context.cloudflare.env.SESSION_SECRET;
  if (!secret) throw new Error("SESSION_SECRET is not configured");
  return createCookie("helio_toast", { path: "/", httpOnly: true, sameSite: "lax", secrets: [secret], maxAge: 60 });
}

export async function toastHeader(context: AppLoadContext, toast: ToastInput): Promise<string> {
  return toastCookie(context).serialize(toastSchema.parse(toast));
}

export async function redirectWithToast(
  context: AppLoadContext,
  url: string,
  toast: ToastInput,
  init: { headers?: HeadersInit; document?: boolean } = {},
) {
  const headers = new Headers(init.headers);
  headers.append("Set-Cookie", await toastHeader(context, toast));
  return (init.document ? redirectDocument : redirect)(url, { headers });
}

/**
 * formAction's answer for a form no screen renders (a resource route several pages post to): a refusal goes back to
 * the page that asked (`backTo` of the posted `back`) with a destructive toast, so it shows without JS too.
 */
export function refuseBackWithToast(context: AppLoadContext, title: string, backTo: (raw: unknown) => string) {
  return {
    resource: true as const,
    failureRedirect: (f: { message: string; values: Record<string, unknown> }) =>
      redirectWithToast(context, backTo(f.values.back), { title, description: f.message, variant: "destructive" }),
  };
}

/** Reads and clears the pending toast. */
export async function takeToast(
  request: Request,
  context: AppLoadContext,
): Promise<{ toast: Toast | null; headers: Headers }> {
  const headers = new Headers();
  const cookie = toastCookie(context);
  const raw = await cookie.parse(request.headers.get("Cookie"));
  // Almost every request has no toast: no parse then (a failed zod parse builds an error object per request).
  if (raw === null || raw === undefined) return { toast: null, headers };
  const parsed = toastSchema.safeParse(raw);
  headers.append("Set-Cookie", await cookie.serialize("", { maxAge: 0 }));
  return { toast: parsed.success ? parsed.data : null, headers };
}
