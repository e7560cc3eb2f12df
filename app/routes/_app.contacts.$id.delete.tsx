import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { useActionData, useLoaderData } from "@remix-run/react";
import { useEffect } from "react";
import { requireUser } from "~/auth/guard.server";
import { useToast } from "~/components/toaster";
import { ConfirmDialog } from "~/components/ui";
import { contactIdParam, loadContact, submitContactDelete } from "~/contacts/contact-form.server";
import { ContactNotFound } from "~/contacts/contact-not-found";

export const meta: MetaFunction = () => [{ title: "Delete Contact — Helio" }];

export async function loader(args: LoaderFunctionArgs) {
  await requireUser(args);
  const c = await loadContact(args.context.db, contactIdParam(args.params.id));
  return { contact: { id: c.id, name: `${c.firstName} ${c.lastName}`, phone: c.phone } };
}

export const action = (args: ActionFunctionArgs) => submitContactDelete(args, contactIdParam(args.params.id));

export default function DeleteContact() {
  const { contact } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const toast = useToast();
  useEffect(() => {
    if (actionData?.failure) toast({ ...actionData.failure, variant: "destructive" });
  }, [actionData, toast]);

  return (
    <ConfirmDialog title="Delete contact" confirmLabel="Delete" pendingLabel="Deleting..." destructive error={actionData?.failure}>
      <p>Are you sure you want to delete this contact?</p>
      <p className="mt-2 text-fg-muted">
        <span className="font-medium text-fg">{contact.name}</span> · {contact.phone}
      </p>
    </ConfirmDialog>
  );
}

export const ErrorBoundary = ContactNotFound;
