import { data, type ActionFunctionArgs } from "@remix-run/cloudflare";
import { AppError } from "~/lib/app-error";
import { redirectWithToast } from "./toast.server";
import { createResponder, updateResponder } from "~/responders/manage-responders.server";
import { readResponderForm } from "~/responders/responder-form-values";
import { parseResponder, RESPONDER_TOASTS } from "~/responders/responder-schema";

/**
 * The create/edit dialog's action: a tab switch re-renders with the posted values (no JS); a save validates,
 * writes, and goes back to the list with a toast — or re-renders with the values and the error.
 */
export async function responderDialogAction(args: ActionFunctionArgs, id: number | null) {
  const { request, context } = args;
  const { values, object, tab, intent } = readResponderForm(await request.formData());
  if (intent.startsWith("tab:")) return data({ values, tab, error: null });
  const title = id === null ? RESPONDER_TOASTS.create : RESPONDER_TOASTS.update;
  try {
    if (id === null) await createResponder(context.db, parseResponder(object), context.clock());
    else await updateResponder(context.db, id, object, context.clock());
  } catch (err) {
    if (!(err instanceof AppError)) throw err;
    // A validation message is shown as the SPEC words it, alone; other failures say what failed first.
    return data({ values, tab, error: { title: err.code === "validation" ? undefined : title, message: err.message } }, { status: err.status });
  }
  return redirectWithToast(context, "/auto-responder", { title: id === null ? "Auto-responder created" : "Auto-responder updated" });
}
