import { recordActivity } from "~/activity/log-activity.server";
import { type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/cloudflare";
import { useActionData, useLoaderData, useLocation } from "@remix-run/react";
import { requireUser } from "~/http/guard.server";
import { Dialog } from "~/components/ui";
import { ContactForm } from "~/contacts/contact-form";
import { CONTACT_DONE, CONTACT_FAILED } from "~/contacts/contact-toasts";
import { formAction } from "~/http/form-action.server";
import { contactSchema } from "~/contacts/contact-schema";
import { listSearch } from "~/contacts/list-search";
import { CONTACT_NOT_FOUND, getContact } from "~/contacts/get-contact.server";
import { updateContact } from "~/contacts/update-contact.server";
import { routeId, throwAsResponse } from "~/http/http.server";
import { redirectWithToast } from "~/http/toast.server";
import { ContactNotFound } from "~/contacts/contact-not-found";
import { parseCustomFields } from "~/contacts/custom-fields";
import { loadOwnerPicker } from "~/contacts/load-owner-picker.server";
import { OwnerCard } from "~/contacts/owner-card";
import { viewerOf } from "~/contacts/contact-scope.server";
import { contactInScope } from "~/http/contact-guard.server";

export const meta: MetaFunction = () => [{ title: "Edit Contact — Helio" }];

export async function loader(args: LoaderFunctionArgs) {
  const me = await requireUser(args);
  // An unknown id is a 404 the route's ErrorBoundary shows inside the dialog.
  const contact = await getContact(args.context.db, routeId(args.params.id, CONTACT_NOT_FOUND), viewerOf(me)).catch(
    throwAsResponse,
  );
  const { id, firstName, lastName, phone, email, company, address, city, state, zipCode } = contact;
  const owner = await loadOwnerPicker(args.context.db, contact.ownerUserId, {
    id: me.id,
    superuser: me.role === "superuser",
  });
  return {
    contact: { id, firstName, lastName, phone, email, company, address, city, state, zipCode },
    customFields: parseCustomFields(contact.customFields),
    owner,
  };
}

/** Edit: validate (zod + conform), update, then back to the list with a toast. */
export async function action(args: ActionFunctionArgs) {
  const { request, context } = args;
  const id = () => routeId(args.params.id, CONTACT_NOT_FOUND);
  return formAction(
    args,
    { schema: contactSchema, coerce: true, title: CONTACT_FAILED.update, before: contactInScope(args) },
    async (input, { user }) => {
      await updateContact(context.db, id(), input, viewerOf(user), context.clock());
      await recordActivity(args, user.id, "update_contact", { contactId: id() });
      return redirectWithToast(context, `/contacts${listSearch(request)}`, { title: CONTACT_DONE.update });
    },
  );
}

export default function EditContact() {
  const { contact, customFields, owner } = useLoaderData<typeof loader>();
  const { search } = useLocation();
  const actionData = useActionData<typeof action>();
  const { id, ...values } = contact;
  const defaultValue = { ...Object.fromEntries(Object.entries(values).map(([k, v]) => [k, v ?? ""])), customFields };
  return (
    <Dialog title="Edit Contact">
      <ContactForm
        key={id}
        id={`contact-edit-${id}`}
        actionData={actionData}
        defaultValue={defaultValue}
        submitLabel="Save Changes"
      />
      {/* The owner is its own form (decision 044): it saves at once, apart from the fields above. */}
      <div className="mt-4">
        <OwnerCard contactId={id} picker={owner} back={`/contacts${search}`} />
      </div>
    </Dialog>
  );
}

export const ErrorBoundary = ContactNotFound;
