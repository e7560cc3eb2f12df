import { parseWithZod } from "@conform-to/zod";
import { data, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/cloudflare";
import { useActionData } from "@remix-run/react";
import { requireUser } from "~/http/guard.server";
import { Dialog } from "~/components/ui";
import { ContactForm } from "~/contacts/contact-form";
import { CONTACT_DONE, failedContactReply, invalidContactReply } from "~/contacts/contact-form-reply.server";
import { contactSchema } from "~/contacts/contact-schema";
import { listSearch } from "~/contacts/list-search";
import { createContact } from "~/contacts/manage-contacts.server";
import { clientIp } from "~/lib/request.server";
import { redirectWithToast } from "~/http/toast.server";

export const meta: MetaFunction = () => [{ title: "Add Contact — Helio" }];

// Nothing to load: only the session is checked.
export const loader = async (args: LoaderFunctionArgs) => { await requireUser(args); return null; };

/** Add: validate (zod + conform), create, then back to the list with a toast. */
export async function action(args: ActionFunctionArgs) {
  const user = await requireUser(args);
  const { request, context } = args;
  const submission = parseWithZod(await request.formData(), { schema: contactSchema });
  if (submission.status !== "success") return data(invalidContactReply(submission), { status: 400 });
  try {
    await createContact(context.db, submission.value, { userId: user.id, ipAddress: clientIp(request) }, context.clock());
  } catch (err) {
    const { reply, status } = failedContactReply(submission, err, "create");
    return data(reply, { status });
  }
  return redirectWithToast(context, `/contacts${listSearch(request)}`, { title: CONTACT_DONE.create });
}

export default function NewContact() {
  const actionData = useActionData<typeof action>();
  return (
    <Dialog title="Add Contact">
      <ContactForm id="contact-new" actionData={actionData} submitLabel="Add Contact" />
    </Dialog>
  );
}
