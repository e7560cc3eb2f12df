import { data, type ActionFunctionArgs } from "@remix-run/cloudflare";
import { z } from "zod";
import { redirectWithToast } from "./toast.server";
import { createResponder } from "~/responders/create-responder.server";
import { updateResponder } from "~/responders/update-responder.server";
import { readResponderForm } from "~/responders/responder-form-values";
import { parseResponder, RESPONDER_TOASTS } from "~/responders/responder-schema";

/**
 * The create/edit dialog's form, for formAction: every field of its tabs (parseResponder and updateResponder check
 * them, with their messages); `id` (null: create) is read after the guard, so an id that cannot exist is its 404.
 */
export const responderDialogForm = (id: () => number | null) => ({
  schema: z.record(z.unknown()),
  title: (intent: string | undefined) =>
    intent?.startsWith("tab:") ? undefined : id() === null ? RESPONDER_TOASTS.create : RESPONDER_TOASTS.update,
  before: id,
});

/**
 * The dialog's action body: a tab switch re-renders with the posted values (no JS); a save validates, writes, and
 * goes back to the list with a toast — or formAction re-renders with the FormFailure (the dialog reads its values
 * and tab back with postedResponder).
 */
export async function saveResponderDialog(args: ActionFunctionArgs, id: number | null, form: Record<string, unknown>) {
  const { context } = args;
  const { values, object, tab, intent } = readResponderForm(form);
  if (intent.startsWith("tab:")) return data({ ok: true as const, values, tab });
  if (id === null) await createResponder(context.db, parseResponder(object), context.clock());
  else await updateResponder(context.db, id, object, context.clock());
  return redirectWithToast(context, "/auto-responder", {
    title: id === null ? "Auto-responder created" : "Auto-responder updated",
  });
}
