import { redirect, type ActionFunctionArgs } from "@remix-run/cloudflare";
import { logOut } from "~/auth/logout.server";
import { serializeSessionCookie } from "~/auth/session.server";
import { redirectWithToast } from "~/http/toast.server";

export async function loader() {
  return redirect("/");
}

export async function action({ request, context }: ActionFunctionArgs) {
  await logOut(context.db, request, context.clock());
  return redirectWithToast(
    context,
    "/login",
    { title: "Logged out successfully", description: "You have been signed out" },
    {
      document: true,
      headers: {
        "Set-Cookie": serializeSessionCookie(request, null),
        // The service worker's caches hold only static files, but nothing of a session outlives it (decision 049).
        "Clear-Site-Data": '"cache"',
      },
    },
  );
}
