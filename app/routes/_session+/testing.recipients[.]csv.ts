import { messagingConfig } from "~/messaging/messaging-config.server";
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/cloudflare";
import { z } from "zod";
import { viewerOf } from "~/contacts/contact-scope.server";
import { broadcastFields, broadcastInput, checkedRecipients } from "~/http/broadcast-form.server";
import { formAction } from "~/http/form-action.server";
import { requireUser } from "~/http/guard.server";
import { methodNotAllowed } from "~/http/api.server";
import { AppError } from "~/lib/app-error";
import { recipientsCsv } from "~/messaging/check-broadcast.server";

// POST only: the sign-in page without a session, then 405.
export const loader = async (args: LoaderFunctionArgs) => {
  await requireUser(args);
  return methodNotAllowed(["POST"]);
};

/**
 * POST /testing/recipients.csv — the pre-send check one line per picked contact (issue 29 item 4): when the copy
 * would reach them in their local time, or the rule that holds it, or why it is skipped. The check's panel posts the
 * same form it would send (a plain form post, so the browser downloads it with or without JavaScript).
 */
export async function action(args: ActionFunctionArgs) {
  return formAction(args, { schema: z.object(broadcastFields), resource: true }, async (form, { user }) => {
    const input = broadcastInput(form);
    if (input.type === "email" && !input.subject)
      throw new AppError("validation", "Please enter a subject", { field: "subject" });
    const now = args.context.clock();
    const csv = await recipientsCsv(
      args.context.db,
      {
        ...input,
        contactIds: await checkedRecipients(args.context.db, input, viewerOf(user), now),
        scheduledAt: input.scheduledAt ? new Date(input.scheduledAt) : null,
        publicBaseUrl: messagingConfig(args.context.cloudflare.env).publicBaseUrl,
        senderId: user.id,
        variables: args.context.domain().hooks.variables,
      },
      now,
      viewerOf(user),
    );
    return new Response(csv, {
      headers: {
        "Content-Type": "text/csv; charset=utf-8",
        "Content-Disposition": `attachment; filename="presend-check-${now.toISOString().slice(0, 10)}.csv"`,
        "Cache-Control": "no-store",
      },
    });
  });
}
