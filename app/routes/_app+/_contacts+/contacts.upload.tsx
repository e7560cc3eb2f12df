import { redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/cloudflare";
import { Form, useActionData, useNavigation } from "@remix-run/react";
import { Upload } from "lucide-react";
import { requireUser } from "~/http/guard.server";
import { useFailureToast } from "~/components/toaster";
import { Alert, Button, Dialog, DialogClose, DialogFooter, Field, TextLink } from "~/components/ui";
import { CONTACTS_TEMPLATE_FILENAME } from "~/contacts/contacts-template";
import { listSearch } from "~/contacts/list-search";
import { MAX_UPLOAD_REQUEST_BYTES, stageUploadedCsv, UPLOAD_TOO_LARGE } from "~/contacts/stage-contact-import.server";
import { formAction } from "~/http/form-action.server";
import { z } from "zod";

export const meta: MetaFunction = () => [{ title: "Upload CSV — Helio" }];

// Nothing to load: only the session is checked.
export const loader = async (args: LoaderFunctionArgs) => {
  await requireUser(args);
  return null;
};

// The file is checked by stageUploadedCsv (a .csv, within the size), so a missing one says which.
const uploadForm = z.object({ file: z.unknown() });

export async function action(args: ActionFunctionArgs) {
  const { request, context } = args;
  // The body stops at the upload's size rather than buffering whatever a client sends.
  return formAction(
    args,
    { schema: uploadForm, limit: { maxBytes: MAX_UPLOAD_REQUEST_BYTES, message: UPLOAD_TOO_LARGE } },
    async (input, { user }) => {
      const imp = await stageUploadedCsv(context.db, input.file, { userId: user.id }, context.clock());
      // Nothing is imported yet: the preview page reads the staged rows back.
      return redirect(`/contacts/imports/${imp.id}${listSearch(request)}`);
    },
  );
}

export default function UploadCsv() {
  const actionData = useActionData<typeof action>();
  const navigation = useNavigation();
  const pending = navigation.state === "submitting";
  useFailureToast(
    actionData,
    actionData?.message
      ? { title: "Upload failed", description: "Please check your file format and try again." }
      : null,
  );

  return (
    <Dialog title="Upload CSV">
      <Form method="post" encType="multipart/form-data" className="space-y-4">
        {actionData?.message ? (
          <Alert tone="danger" data-testid="upload-error">
            {actionData.message}
          </Alert>
        ) : null}
        <Field label="CSV file" id="csv-file" type="file" name="file" accept=".csv" required />
        <Alert className="border-0 text-xs">
          <p>
            Our template, or an export from your CRM (HubSpot, Google Contacts, Salesforce, Zoho, Pipedrive,
            GoHighLevel) or lead vendor: each contact needs a first name, a last name (or a full name) and a phone.
            Where a file has several phone columns, the mobile is used.
          </p>
          <p className="mt-1">
            Next you match the file's columns to contact fields, then see a preview of the first 10 valid rows and any
            errors before anything is imported.
          </p>
        </Alert>
        <div className="flex items-center justify-between gap-2">
          <TextLink href="/contacts/template.csv" download={CONTACTS_TEMPLATE_FILENAME} className="text-sm">
            Download template
          </TextLink>
          <DialogFooter>
            <DialogClose>Cancel</DialogClose>
            <Button type="submit" disabled={pending} icon={Upload}>
              {pending ? "Uploading..." : "Upload and preview"}
            </Button>
          </DialogFooter>
        </div>
      </Form>
    </Dialog>
  );
}
