import { type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/cloudflare";
import { useActionData } from "@remix-run/react";
import { ownerOfNewContact, viewerOf } from "~/contacts/contact-scope.server";
import { requireUser } from "~/http/guard.server";
import { Dialog } from "~/components/ui";
import { ContactForm } from "~/contacts/contact-form";
import { CONTACT_DONE, CONTACT_FAILED } from "~/contacts/contact-toasts";
import { formAction } from "~/http/form-action.server";
import { contactSchema } from "~/contacts/contact-schema";
import { listSearch } from "~/contacts/list-search";
import { createContact } from "~/contacts/create-contact.server";
import { redirectWithToast } from "~/http/toast.server";

export const meta: MetaFunction = () => [{ title: "Add Contact — Helio" }];

// Nothing to load: only the session is checked.
export const loader = async (args: LoaderFunctionArgs) => {
  await requireUser(args);
  return null;
};

/** Add: validate (zod + conform), create, then back to the list with a toast. */
export async function action(args: ActionFunctionArgs) {
  const { request, context } = args;
  return formAction(
    args,
    { schema: contactSchema, coerce: true, title: CONTACT_FAILED.create },
    async (input, { actor, user }) => {
      await createContact(context.db, input, actor, context.clock(), ownerOfNewContact(viewerOf(user)));
      return redirectWithToast(context, `/contacts${listSearch(request)}`, { title: CONTACT_DONE.create });
    },
  );
}

export default function NewContact() {
  const actionData = useActionData<typeof action>();
  return (
    <Dialog title="Add Contact">
      <ContactForm id="contact-new" actionData={actionData} submitLabel="Add Contact" />
    </Dialog>
  );
}
