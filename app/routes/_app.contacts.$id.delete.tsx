import { data, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/cloudflare";
import { Form, Link, useActionData, useLoaderData, useLocation, useNavigation } from "@remix-run/react";
import { useEffect } from "react";
import { requireUser } from "~/auth/guard.server";
import { Dialog } from "~/components/dialog";
import { useToast } from "~/components/toaster";
import { CONTACT_DONE, failedDeleteReply } from "~/contacts/contact-form-reply.server";
import { listSearch } from "~/contacts/list-search";
import { CONTACT_NOT_FOUND, deleteContact, getContact } from "~/contacts/manage-contacts.server";
import { routeId, throwAsResponse } from "~/lib/http.server";
import { redirectWithToast } from "~/toast/toast.server";
import { ContactNotFound } from "~/contacts/contact-not-found";

export const meta: MetaFunction = () => [{ title: "Delete Contact — Helio" }];

export async function loader(args: LoaderFunctionArgs) {
  await requireUser(args);
  const c = await getContact(args.context.db, routeId(args.params.id, CONTACT_NOT_FOUND)).catch(throwAsResponse);
  return { contact: { id: c.id, name: `${c.firstName} ${c.lastName}`, phone: c.phone } };
}

/** The delete confirmation: delete, then back to the list with a toast. */
export async function action(args: ActionFunctionArgs) {
  await requireUser(args);
  const { request, context } = args;
  const id = routeId(args.params.id, CONTACT_NOT_FOUND);
  try {
    await deleteContact(context.db, id);
  } catch (err) {
    const { reply, status } = failedDeleteReply(err);
    return data(reply, { status });
  }
  return redirectWithToast(context, `/contacts${listSearch(request)}`, { title: CONTACT_DONE.delete });
}

export default function DeleteContact() {
  const { contact } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const location = useLocation();
  const navigation = useNavigation();
  const toast = useToast();
  useEffect(() => {
    if (actionData?.failure) toast({ ...actionData.failure, variant: "destructive" });
  }, [actionData, toast]);

  return (
    <Dialog title="Delete contact">
      {actionData?.failure ? (
        <div role="alert" className="mb-4 rounded-md border border-red-200 bg-red-50 p-3 text-sm text-red-700">
          <strong>{actionData.failure.title}</strong>: {actionData.failure.description}
        </div>
      ) : null}
      <p className="text-sm">Are you sure you want to delete this contact?</p>
      <p className="mt-2 text-sm text-slate-600">
        <span className="font-medium text-slate-900">{contact.name}</span> · {contact.phone}
      </p>
      <Form method="post" className="mt-6 flex justify-end gap-2">
        <Link to={`/contacts${location.search}`} preventScrollReset className="rounded-md border border-slate-300 px-4 py-2 text-sm hover:bg-slate-50">
          Cancel
        </Link>
        <button type="submit" disabled={navigation.state === "submitting"} className="rounded-md bg-red-600 px-4 py-2 text-sm font-semibold text-white hover:bg-red-700 disabled:opacity-60">
          {navigation.state === "submitting" ? "Deleting..." : "Delete"}
        </button>
      </Form>
    </Dialog>
  );
}

export const ErrorBoundary = ContactNotFound;
