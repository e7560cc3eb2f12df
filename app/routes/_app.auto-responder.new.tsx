import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { useActionData } from "@remix-run/react";
import { requireUser } from "~/http/guard.server";
import { Dialog } from "~/components/ui";
import { responderDialogAction } from "~/http/responder-dialog.server";
import { ResponderForm } from "~/responders/responder-form";
import { valuesOf } from "~/responders/responder-form-values";
import { DEFAULT_RESPONDER } from "~/responders/responder-schema";

export const meta: MetaFunction = () => [{ title: "New Auto-Responder — Helio" }];

// Nothing to load: only the session is checked.
export const loader = async (args: LoaderFunctionArgs) => { await requireUser(args); return null; };

export async function action(args: ActionFunctionArgs) {
  await requireUser(args);
  return responderDialogAction(args, null);
}

export default function NewResponder() {
  const posted = useActionData<typeof action>();
  return (
    <Dialog title="Create Auto-Responder" size="lg">
      <ResponderForm values={posted?.values ?? valuesOf(DEFAULT_RESPONDER)} tab={posted?.tab ?? "basic"} error={posted?.error} submitLabel="Create Responder" />
    </Dialog>
  );
}
