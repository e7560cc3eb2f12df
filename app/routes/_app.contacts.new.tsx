import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { useActionData } from "@remix-run/react";
import { requireUser } from "~/auth/guard.server";
import { Dialog } from "~/components/ui";
import { ContactForm } from "~/contacts/contact-form";
import { submitContactForm } from "~/contacts/contact-form.server";

export const meta: MetaFunction = () => [{ title: "Add Contact — Helio" }];

export async function loader(args: LoaderFunctionArgs) {
  await requireUser(args);
  return null;
}

export const action = (args: ActionFunctionArgs) => submitContactForm(args, { kind: "create" });

export default function NewContact() {
  const actionData = useActionData<typeof action>();
  return (
    <Dialog title="Add Contact">
      <ContactForm id="contact-new" actionData={actionData} submitLabel="Add Contact" />
    </Dialog>
  );
}
