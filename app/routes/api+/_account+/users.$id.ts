import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/cloudflare";
import { requireApiUser } from "~/http/guard.server";
import { methodNotAllowed, parseJsonBody } from "~/http/api.server";
import { AppError } from "~/lib/app-error";
import { apiRoute } from "~/http/http.server";
import { requireId } from "~/lib/ids";
import { clientIp } from "~/lib/request.server";
import { getUserDetails, updateUser, USER_NOT_FOUND } from "~/users/manage-users.server";
import { userChangeSchema } from "~/users/user-schema";

/** GET /api/users/:id — the account with its recent activity and sign-ins (superusers only). */
export async function loader(args: LoaderFunctionArgs) {
  await requireApiUser(args, { role: "superuser" });
  return apiRoute(async () =>
    Response.json(await getUserDetails(args.context.db, requireId(args.params.id, USER_NOT_FOUND))),
  );
}

/**
 * PUT /api/users/:id `{ role?, isActive?, handOffTo?, availableForLeads?, smsSender?, resetPassword?, resetTwoFactor? }`
 * → `{ user, password }` (password only on reset; resetTwoFactor turns the user's two-factor off and ends their
 * sessions, logged). `smsSender` (E.164 or MG…, null clears; decision 045): 409 when another user has it, 400 when
 * Twilio is configured and the number is not the account's.
 * 409 when the change would leave no active superuser, or when a superuser changes their own role or status.
 */
export async function action(args: ActionFunctionArgs) {
  const me = await requireApiUser(args, { role: "superuser" });
  if (args.request.method !== "PUT") return methodNotAllowed(["GET", "PUT"]);
  return apiRoute(async () => {
    const id = requireId(args.params.id, USER_NOT_FOUND);
    const change = await parseJsonBody(args.request, userChangeSchema);
    // Your own two-factor is turned off from the Account screen, with your password.
    if (id === me.id && (change.role !== undefined || change.isActive !== undefined || change.resetTwoFactor)) {
      throw new AppError("conflict", "Another superuser must change your own role, status or two-factor");
    }
    const result = await updateUser(
      args.context.db,
      id,
      change,
      { userId: me.id, ipAddress: clientIp(args.request) },
      args.context.clock(),
      { sms: args.context.sms() },
    );
    return Response.json(result, { headers: { "Cache-Control": "no-store" } });
  });
}
