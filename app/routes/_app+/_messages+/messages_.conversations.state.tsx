import { redirect, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/cloudflare";
import { z } from "zod";
import { localToUtc } from "~/campaigns/local-time";
import { setConversationState, type ConversationStateChange } from "~/conversations/set-conversation-state.server";
import { formAction } from "~/http/form-action.server";
// Schema helpers from the module the browser bundle keeps: a .server module is empty there (decision 030).
import { backField, intentError } from "~/http/form-schema";
import { seesAllContacts, viewerOf } from "~/contacts/contact-scope.server";
import { requireUser } from "~/http/guard.server";
import { redirectWithToast, refuseBackWithToast } from "~/http/toast.server";
import { AppError } from "~/lib/app-error";
import { zodId } from "~/lib/ids";

// POST /messages/conversations/state — close, snooze or reopen one conversation (decision 046). The queue's rows and
// the conversation screens post here as plain forms; the answer goes back to the page that asked.
const base = { id: zodId("Choose a conversation"), back: backField };
const schema = z.discriminatedUnion(
  "intent",
  [
    z.object({ intent: z.literal("close"), ...base }),
    z.object({ intent: z.literal("reopen"), ...base }),
    z.object({
      intent: z.literal("snooze"),
      ...base,
      // Minutes (the row's choices), or a date and time in `tz` (the conversation screen), which wins when given.
      for: z.coerce.number().int().min(1).max(527_040).optional().catch(undefined),
      until: z.string().max(20).optional(),
      tz: z.string().max(64).optional(),
    }),
  ],
  intentError(),
);
type Input = z.infer<typeof schema>;

const TOASTS = { close: "Conversation closed", reopen: "Conversation reopened", snooze: "Conversation snoozed" };

function change(input: Input, now: Date): ConversationStateChange {
  if (input.intent !== "snooze") return { intent: input.intent };
  if (input.until) {
    const until = localToUtc(input.until, input.tz || "UTC");
    if (!until) throw new AppError("validation", "Please enter a valid date and time", { field: "until" });
    return { intent: "snooze", until };
  }
  return { intent: "snooze", until: new Date(now.getTime() + (input.for ?? 1440) * 60_000) };
}

/** Nothing to show here: the forms are on the queue and the conversation screens. */
export async function loader(args: LoaderFunctionArgs) {
  await requireUser(args);
  return redirect("/messages/conversations");
}

export async function action(args: ActionFunctionArgs) {
  const backTo = (raw: unknown) => backField.parse(raw) ?? "/messages/conversations";
  const spec = {
    schema,
    title: "Conversation not changed",
    // No screen renders this route's reply: a form no page could send is JSON, a refusal a toast on the page that asked.
    ...refuseBackWithToast(args.context, "Conversation not changed", backTo),
  };
  return formAction(args, spec, async (input, { user }) => {
    const now = args.context.clock();
    await setConversationState(
      args.context.db,
      input.id,
      change(input, now),
      // Decision 048's scope: a superuser, or everyone once the organisation lets every user see all.
      { userId: user.id, seeAll: await seesAllContacts(viewerOf(user), args.context.db) },
      now,
    );
    return redirectWithToast(args.context, backTo(input.back), { title: TOASTS[input.intent] });
  });
}
