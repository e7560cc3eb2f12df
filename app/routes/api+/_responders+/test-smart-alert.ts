import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/cloudflare";
import { z } from "zod";
import { ALERT_TOASTS } from "~/responders/alerts/alert-schema";
import { runTestAlert } from "~/responders/alerts/run-test-alert.server";
import { requireApiUser } from "~/http/guard.server";
import { methodNotAllowed } from "~/http/api.server";
import { postJson } from "~/http/http.server";
import { zodId } from "~/lib/ids";

const body = z.object({
  message: z.string({ invalid_type_error: "message must be text" }).default(""),
  contactId: zodId().nullish(),
});

// POST only: 401 without a session, then 405.
export const loader = async (args: LoaderFunctionArgs) => {
  await requireApiUser(args);
  return methodNotAllowed(["POST"]);
};

/** POST /api/test-smart-alert `{message, contactId?}` → what matched and what was sent; 400 "Message Required". */
export async function action(args: ActionFunctionArgs) {
  const user = await requireApiUser(args);
  const { request, context } = args;
  return postJson(
    request,
    body,
    (input) =>
      runTestAlert(context.replyDeps(), { message: input.message, contactId: input.contactId ?? null }, user.id),
    { fallback: ALERT_TOASTS.testFailedText },
  );
}
