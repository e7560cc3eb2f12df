import { data, redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/cloudflare";
import { Form, Link, useActionData, useLocation, useNavigation } from "@remix-run/react";
import { useEffect } from "react";
import { requireUser } from "~/auth/guard.server";
import { Dialog } from "~/components/dialog";
import { useToast } from "~/components/toaster";
import { listSearch } from "~/contacts/contact-form.server";
import { ContactError } from "~/contacts/contact-row.server";
import { CONTACTS_TEMPLATE_FILENAME } from "~/contacts/contacts-template";
import { MAX_UPLOAD_REQUEST_BYTES, stageUploadedCsv, UPLOAD_TOO_LARGE } from "~/contacts/import-contacts.server";
import { isAppError } from "~/lib/app-error";
import { readFormDataLimited } from "~/lib/read-body.server";

export const meta: MetaFunction = () => [{ title: "Upload CSV — Helio" }];

export async function loader(args: LoaderFunctionArgs) {
  await requireUser(args);
  return null;
}

export async function action(args: ActionFunctionArgs) {
  const user = await requireUser(args);
  const { request, context } = args;
  try {
    // Stop reading at the size limit rather than buffering whatever a client sends.
    const form = await readFormDataLimited(request, MAX_UPLOAD_REQUEST_BYTES, UPLOAD_TOO_LARGE);
    const imp = await stageUploadedCsv(context.db, form, { userId: user.id }, context.clock());
    // Nothing is imported yet: the preview page reads the staged rows back.
    return redirect(`/contacts/imports/${imp.id}${listSearch(request)}`);
  } catch (err) {
    if (!(err instanceof ContactError) && !isAppError(err)) throw err;
    return data({ error: err.message }, { status: err.status });
  }
}

export default function UploadCsv() {
  const actionData = useActionData<typeof action>();
  const navigation = useNavigation();
  const location = useLocation();
  const toast = useToast();
  const pending = navigation.state === "submitting";
  useEffect(() => {
    if (actionData?.error) toast({ title: "Upload failed", description: "Please check your file format and try again.", variant: "destructive" });
  }, [actionData, toast]);

  return (
    <Dialog title="Upload CSV">
      <Form method="post" encType="multipart/form-data" className="space-y-4">
        {actionData?.error ? (
          <div role="alert" className="rounded-md border border-red-200 bg-red-50 p-3 text-sm text-red-700" data-testid="upload-error">
            {actionData.error}
          </div>
        ) : null}
        <div>
          <label htmlFor="csv-file" className="mb-1 block text-sm font-medium">
            CSV file
          </label>
          <input id="csv-file" type="file" name="file" accept=".csv" required className="block w-full text-sm file:mr-3 file:rounded-md file:border-0 file:bg-slate-100 file:px-3 file:py-2" />
        </div>
        <div className="rounded-md bg-slate-50 p-3 text-xs text-slate-600">
          <p>
            Required columns: <strong>firstName</strong>, <strong>lastName</strong> and <strong>phone</strong> (aliases such as “First Name”, “first_name”,
            “Phone Number” or “mobile” work too). Optional: email, company, address, city, state, zip.
          </p>
          <p className="mt-1">You will see a preview of the first 10 valid rows and any errors before anything is imported.</p>
        </div>
        <div className="flex items-center justify-between gap-2">
          <a href="/contacts/template.csv" download={CONTACTS_TEMPLATE_FILENAME} className="text-sm text-amber-700 hover:underline">
            Download template
          </a>
          <div className="flex gap-2">
            <Link to={`/contacts${location.search}`} preventScrollReset className="rounded-md border border-slate-300 px-4 py-2 text-sm hover:bg-slate-50">
              Cancel
            </Link>
            <button type="submit" disabled={pending} className="rounded-md bg-amber-500 px-4 py-2 text-sm font-semibold text-slate-900 hover:bg-amber-600 disabled:opacity-60">
              {pending ? "Uploading..." : "Upload and preview"}
            </button>
          </div>
        </div>
      </Form>
    </Dialog>
  );
}
