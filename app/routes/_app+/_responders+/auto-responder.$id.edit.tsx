import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { useActionData, useLoaderData } from "@remix-run/react";
import { requireUser } from "~/http/guard.server";
import { Dialog } from "~/components/ui";
import { routeId, throwAsResponse } from "~/http/http.server";
import { getResponder } from "~/responders/get-responder.server";
import { responderDialogForm, saveResponderDialog } from "~/http/responder-dialog.server";
import { formAction } from "~/http/form-action.server";
import { ResponderForm } from "~/responders/responder-form";
import { postedResponder, valuesOf } from "~/responders/responder-form-values";
import { RESPONDER_NOT_FOUND } from "~/responders/responder-schema";
import { settingsOf } from "~/responders/run-responders.server";

export const meta: MetaFunction = () => [{ title: "Edit Auto-Responder — Helio" }];

export async function loader(args: LoaderFunctionArgs) {
  await requireUser(args);
  const r = await getResponder(args.context.db, routeId(args.params.id, RESPONDER_NOT_FOUND)).catch(throwAsResponse);
  return { name: r.name, values: valuesOf(settingsOf(r)) };
}

export async function action(args: ActionFunctionArgs) {
  const id = () => routeId(args.params.id, RESPONDER_NOT_FOUND);
  return formAction(args, responderDialogForm(id), (form) => saveResponderDialog(args, id(), form));
}

export default function EditResponder() {
  const { name, values } = useLoaderData<typeof loader>();
  const posted = postedResponder(useActionData<typeof action>());
  return (
    <Dialog title={`Edit ${name}`} size="lg">
      <ResponderForm
        values={posted?.values ?? values}
        tab={posted?.tab ?? "basic"}
        error={posted?.error}
        submitLabel="Save Changes"
      />
    </Dialog>
  );
}
