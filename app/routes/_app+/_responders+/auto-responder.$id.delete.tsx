import { type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/cloudflare";
import { useActionData, useLoaderData } from "@remix-run/react";
import { requireUser } from "~/http/guard.server";
import { ConfirmDialog } from "~/components/ui";
import { failureToast } from "~/components/form-failure";
import { formAction } from "~/http/form-action.server";
import { z } from "zod";
import { routeId, throwAsResponse } from "~/http/http.server";
import { deleteResponder } from "~/responders/delete-responder.server";
import { getResponder } from "~/responders/get-responder.server";
import { RESPONDER_NOT_FOUND, RESPONDER_TOASTS } from "~/responders/responder-schema";
import { redirectWithToast } from "~/http/toast.server";

export const meta: MetaFunction = () => [{ title: "Delete Auto-Responder — Helio" }];

export async function loader(args: LoaderFunctionArgs) {
  await requireUser(args);
  const r = await getResponder(args.context.db, routeId(args.params.id, RESPONDER_NOT_FOUND)).catch(throwAsResponse);
  return { name: r.name };
}

export async function action(args: ActionFunctionArgs) {
  return formAction(args, { schema: z.object({}), title: RESPONDER_TOASTS.delete }, async () => {
    await deleteResponder(args.context.db, routeId(args.params.id, RESPONDER_NOT_FOUND));
    return redirectWithToast(args.context, "/auto-responder", { title: "Auto-responder deleted" });
  });
}

export default function DeleteResponder() {
  const { name } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  return (
    <ConfirmDialog
      title="Delete auto-responder"
      confirmLabel="Delete"
      pendingLabel="Deleting..."
      destructive
      error={failureToast(actionData, RESPONDER_TOASTS.delete)}
    >
      <p>
        Delete <span className="font-medium">{name}</span>? It stops answering at once.
      </p>
    </ConfirmDialog>
  );
}
