import { redirect, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/cloudflare";
import { z } from "zod";
import { describeDevice } from "~/auth/describe-device.server";
import { formAction } from "~/http/form-action.server";
// Schema helpers from the module the browser bundle keeps: a .server module is empty there (decision 030).
import { intentError, withDefaults } from "~/http/form-schema";
import { requireUser } from "~/http/guard.server";
import { redirectWithToast } from "~/http/toast.server";
import { userAgent } from "~/lib/request.server";
import { pushSubscriptionInput } from "~/push/push-schema";
import { removePushSubscription } from "~/push/remove-push-subscription.server";
import { savePushSubscription } from "~/push/save-push-subscription.server";
import { updatePushPreferences } from "~/push/update-push-preferences.server";

// POST /account/push — the account screen's Notifications card (decision 049): what is pushed (a form that works
// without JS), and this browser's subscription (posted by the card's script once the browser has subscribed).
const onOff = z.enum(["true", "false"]);
const schema = withDefaults(
  { intent: "preferences" },
  z.discriminatedUnion(
    "intent",
    [
      z.object({ intent: z.literal("preferences"), hotLeads: onOff, replies: onOff }),
      pushSubscriptionInput.extend({ intent: z.literal("subscribe") }),
      z.object({ intent: z.literal("unsubscribe"), endpoint: z.string().max(1000) }),
    ],
    intentError(),
  ),
  // An unticked box posts nothing: off.
  (v) => ({
    ...v,
    hotLeads: v.hotLeads === "true" ? "true" : "false",
    replies: v.replies === "true" ? "true" : "false",
  }),
);

/** Nothing to show here: the settings are on the account screen. */
export async function loader(args: LoaderFunctionArgs) {
  await requireUser(args);
  return redirect("/account");
}

export async function action(args: ActionFunctionArgs) {
  const spec = {
    schema,
    title: "Notifications not changed",
    resource: true,
    // No screen renders this route's reply: a refusal is a destructive toast on the account screen (works without JS).
    failureRedirect: (f: { message: string }) =>
      redirectWithToast(args.context, "/account", {
        title: "Notifications not changed",
        description: f.message,
        variant: "destructive" as const,
      }),
  };
  return formAction(args, spec, async (input, { user }) => {
    const { db } = args.context;
    const now = args.context.clock();
    if (input.intent === "subscribe") {
      const device = describeDevice(userAgent(args.request));
      await savePushSubscription(db, args.context.push(), user.id, input, device, now);
      return redirectWithToast(args.context, "/account", { title: "Notifications on for this device" });
    }
    if (input.intent === "unsubscribe") {
      await removePushSubscription(db, user.id, input.endpoint);
      return redirectWithToast(args.context, "/account", { title: "Notifications off for this device" });
    }
    await updatePushPreferences(
      db,
      user.id,
      { hotLeads: input.hotLeads === "true", replies: input.replies === "true" },
      now,
    );
    return redirectWithToast(args.context, "/account", { title: "Notification settings saved" });
  });
}
