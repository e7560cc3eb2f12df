import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { useActionData, useLoaderData } from "@remix-run/react";
import { requireUser } from "~/auth/guard.server";
import { Dialog } from "~/components/ui";
import { ContactForm } from "~/contacts/contact-form";
import { contactIdParam, loadContact, submitContactForm } from "~/contacts/contact-form.server";
import { ContactNotFound } from "~/contacts/contact-not-found";

export const meta: MetaFunction = () => [{ title: "Edit Contact — Helio" }];

export async function loader(args: LoaderFunctionArgs) {
  await requireUser(args);
  const contact = await loadContact(args.context.db, contactIdParam(args.params.id));
  const { id, firstName, lastName, phone, email, company, address, city, state, zipCode } = contact;
  return { contact: { id, firstName, lastName, phone, email, company, address, city, state, zipCode } };
}

export const action = (args: ActionFunctionArgs) => submitContactForm(args, { kind: "update", id: contactIdParam(args.params.id) });

export default function EditContact() {
  const { contact } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const { id, ...values } = contact;
  const defaultValue = Object.fromEntries(Object.entries(values).map(([k, v]) => [k, v ?? ""]));
  return (
    <Dialog title="Edit Contact">
      <ContactForm key={id} id={`contact-edit-${id}`} actionData={actionData} defaultValue={defaultValue} submitLabel="Save Changes" />
    </Dialog>
  );
}

export const ErrorBoundary = ContactNotFound;
