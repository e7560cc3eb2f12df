import { recordActivity } from "~/activity/log-activity.server";
import { type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/cloudflare";
import { useActionData, useLoaderData } from "@remix-run/react";
import { requireUser } from "~/http/guard.server";
import { useFailureToast } from "~/components/toaster";
import { CONTACT_DONE, CONTACT_FAILED } from "~/contacts/contact-toasts";
import { failureToast } from "~/components/form-failure";
import { formAction } from "~/http/form-action.server";
import { z } from "zod";
import { listSearch } from "~/contacts/list-search";
import { deleteContact } from "~/contacts/delete-contact.server";
import { CONTACT_NOT_FOUND, getContact } from "~/contacts/get-contact.server";
import { routeId, throwAsResponse } from "~/http/http.server";
import { redirectWithToast } from "~/http/toast.server";
import { ConfirmDialog } from "~/components/ui";
import { ContactNotFound } from "~/contacts/contact-not-found";
import { viewerOf } from "~/contacts/contact-scope.server";
import { contactInScope } from "~/http/contact-guard.server";

export const meta: MetaFunction = () => [{ title: "Delete Contact — Helio" }];

export async function loader(args: LoaderFunctionArgs) {
  const me = await requireUser(args);
  const c = await getContact(args.context.db, routeId(args.params.id, CONTACT_NOT_FOUND), viewerOf(me)).catch(
    throwAsResponse,
  );
  return { contact: { id: c.id, name: `${c.firstName} ${c.lastName}`, phone: c.phone } };
}

/** The delete confirmation: delete, then back to the list with a toast. */
export async function action(args: ActionFunctionArgs) {
  const { request, context } = args;
  const id = () => routeId(args.params.id, CONTACT_NOT_FOUND);
  return formAction(
    args,
    { schema: z.object({}), title: CONTACT_FAILED.delete, before: contactInScope(args) },
    async (_, { user }) => {
      await deleteContact(context.db, id(), viewerOf(user));
      await recordActivity(args, user.id, "delete_contact", { contactId: id() });
      return redirectWithToast(context, `/contacts${listSearch(request)}`, { title: CONTACT_DONE.delete });
    },
  );
}

export default function DeleteContact() {
  const { contact } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const failure = failureToast(actionData, CONTACT_FAILED.delete);
  useFailureToast(actionData, failure);

  return (
    <ConfirmDialog title="Delete contact" confirmLabel="Delete" pendingLabel="Deleting..." destructive error={failure}>
      <p>Are you sure you want to delete this contact?</p>
      <p className="mt-2 text-fg-muted">
        <span className="font-medium text-fg">{contact.name}</span> · {contact.phone}
      </p>
    </ConfirmDialog>
  );
}

export const ErrorBoundary = ContactNotFound;
