import { data, type ActionFunctionArgs } from "@remix-run/cloudflare";
import { z } from "zod";
import { formAction } from "~/http/form-action.server";
import { redirectWithToast } from "~/toast/toast.server";
import { createResponder, updateResponder } from "./manage-responders.server";
import { readResponderForm } from "./responder-form-values";
import { parseResponder, RESPONDER_TOASTS } from "./responder-schema";

// Every field of the dialog's tabs; parseResponder (create) and updateResponder check them with their messages.
const responderForm = z.record(z.unknown());

/**
 * The create/edit dialog's action: a tab switch re-renders with the posted values (no JS); a save validates,
 * writes, and goes back to the list with a toast — or re-renders with the values and the error (a FormFailure;
 * the dialog reads its values and tab back with readResponderForm).
 */
export async function responderDialogAction(args: ActionFunctionArgs, id: () => number | null) {
  const { context } = args;
  return formAction(args, { schema: responderForm, title: id() === null ? RESPONDER_TOASTS.create : RESPONDER_TOASTS.update, before: id }, async (form) => {
    const { values, object, tab, intent } = readResponderForm(form);
    if (intent.startsWith("tab:")) return data({ ok: true as const, values, tab });
    const responderId = id();
    if (responderId === null) await createResponder(context.db, parseResponder(object), context.clock());
    else await updateResponder(context.db, responderId, object, context.clock());
    return redirectWithToast(context, "/auto-responder", { title: responderId === null ? "Auto-responder created" : "Auto-responder updated" });
  });
}
