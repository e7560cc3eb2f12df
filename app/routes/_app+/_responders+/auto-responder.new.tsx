import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { useActionData } from "@remix-run/react";
import { requireUser } from "~/http/guard.server";
import { Dialog } from "~/components/ui";
import { responderDialogForm, saveResponderDialog } from "~/http/responder-dialog.server";
import { formAction } from "~/http/form-action.server";
import { ResponderForm } from "~/responders/responder-form";
import { postedResponder, valuesOf } from "~/responders/responder-form-values";
import { DEFAULT_RESPONDER } from "~/responders/responder-schema";

export const meta: MetaFunction = () => [{ title: "New Auto-Responder — Helio" }];

// Nothing to load: only the session is checked.
export const loader = async (args: LoaderFunctionArgs) => {
  await requireUser(args);
  return null;
};

export async function action(args: ActionFunctionArgs) {
  const id = () => null;
  return formAction(args, responderDialogForm(id), (form) => saveResponderDialog(args, id(), form));
}

export default function NewResponder() {
  const posted = postedResponder(useActionData<typeof action>());
  return (
    <Dialog title="Create Auto-Responder" size="lg">
      <ResponderForm
        values={posted?.values ?? valuesOf(DEFAULT_RESPONDER)}
        tab={posted?.tab ?? "basic"}
        error={posted?.error}
        submitLabel="Create Responder"
      />
    </Dialog>
  );
}
