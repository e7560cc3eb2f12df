import { redirect, type ActionFunctionArgs, type AppLoadContext, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/cloudflare";
import { Form, Link, useActionData, useLoaderData, useLocation, useNavigation, useRevalidator } from "@remix-run/react";
import { useEffect } from "react";
import { z } from "zod";
import { requireUser } from "~/auth/guard.server";
import { Dialog } from "~/components/dialog";
import { useToast } from "~/components/toaster";
import { cancelContactImport } from "~/contacts/cancel-contact-import.server";
import { ContactNotFound } from "~/contacts/contact-not-found";
import { listSearch } from "~/contacts/list-search";
import { startContactImport } from "~/contacts/start-contact-import.server";
import { contactImportDoneToast, viewContactImport } from "~/contacts/view-contact-import.server";
import { DUPLICATE_MODES } from "~/db/schema";
import type { ImportContactsJob } from "~/jobs/jobs";
import { AppError } from "~/lib/app-error";
import { formErrorReply, routeId, throwAsResponse } from "~/lib/http.server";
import { redirectWithToast } from "~/toast/toast.server";

export const meta: MetaFunction = () => [{ title: "Import contacts — Helio" }];

const IMPORT_NOT_FOUND = "Import not found";

function enqueuer(context: AppLoadContext) {
  return async (id: number) => {
    await context.cloudflare.env.JOBS.send({ v: 1, type: "import-contacts", importId: id } satisfies ImportContactsJob);
  };
}

/** The preview / progress / result page of one staged import (someone else's import is a 404 like a missing one). */
export async function loader(args: LoaderFunctionArgs) {
  const user = await requireUser(args);
  const { context } = args;
  const id = routeId(args.params.id, IMPORT_NOT_FOUND);
  return viewContactImport(context.db, { id, userId: user.id, now: context.clock(), enqueue: enqueuer(context) }).catch(throwAsResponse);
}

const intentSchema = z.discriminatedUnion("intent", [
  z.object({ intent: z.literal("confirm"), duplicateMode: z.enum(DUPLICATE_MODES).catch("skip") }),
  z.object({ intent: z.literal("cancel") }),
  z.object({ intent: z.literal("done") }),
]);

export async function action(args: ActionFunctionArgs) {
  const user = await requireUser(args);
  const { request, context } = args;
  const id = routeId(args.params.id, IMPORT_NOT_FOUND);
  const back = `/contacts${listSearch(request)}`;
  try {
    const parsed = intentSchema.safeParse(Object.fromEntries(await request.formData()));
    if (!parsed.success) throw new AppError("validation", "Unknown action");
    switch (parsed.data.intent) {
      case "confirm":
        await startContactImport(context.db, { id, userId: user.id, mode: parsed.data.duplicateMode, now: context.clock, enqueue: enqueuer(context) });
        // Post/redirect/get: the page then shows the result, or progress while the queue finishes the rest.
        return redirect(new URL(request.url).pathname + listSearch(request));
      case "cancel":
        await cancelContactImport(context.db, id, user.id);
        return redirectWithToast(context, back, { title: "Import cancelled" });
      case "done":
        return redirectWithToast(context, back, await contactImportDoneToast(context.db, id, user.id).catch(throwAsResponse));
    }
  } catch (err) {
    return formErrorReply(err);
  }
}

const primary = "rounded-md bg-amber-500 px-4 py-2 text-sm font-semibold text-slate-900 hover:bg-amber-600 disabled:cursor-not-allowed disabled:opacity-60";
const secondary = "rounded-md border border-slate-300 px-4 py-2 text-sm hover:bg-slate-50";

export default function ImportPreview() {
  const { import: imp, rows, errors, summary } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const navigation = useNavigation();
  const location = useLocation();
  const revalidator = useRevalidator();
  const toast = useToast();
  const importing = imp.status === "importing";
  const busy = navigation.state !== "idle";

  useEffect(() => {
    if (actionData?.message) toast({ title: "Failed to upload contacts", description: "There was an error uploading the contacts. Please try again.", variant: "destructive" });
  }, [actionData, toast]);
  // With JS: poll while the queue works; without JS the <noscript> refresh below does the same.
  useEffect(() => {
    if (!importing) return;
    const t = setInterval(() => revalidator.state === "idle" && revalidator.revalidate(), 1500);
    return () => clearInterval(t);
  }, [importing, revalidator]);

  const percent = imp.validRows ? Math.min(100, Math.round((imp.processedRows / imp.validRows) * 100)) : 0;

  return (
    <Dialog title={imp.status === "staged" ? "Preview import" : imp.status === "completed" ? "Import complete" : "Importing contacts"} wide>
      <p className="mb-3 text-sm text-slate-600">
        File: <span className="font-medium text-slate-900">{imp.fileName}</span>
      </p>
      {actionData?.message ? (
        <div role="alert" className="mb-4 rounded-md border border-red-200 bg-red-50 p-3 text-sm text-red-700">
          {actionData.message}
        </div>
      ) : null}

      {imp.status === "staged" ? (
        <>
          <ul className="mb-4 flex flex-wrap gap-x-6 gap-y-1 text-sm" data-testid="import-counts">
            <li>
              <strong>{imp.totalRows}</strong> rows in file
            </li>
            <li>
              <strong>{imp.validRows}</strong> valid contacts
            </li>
            <li>
              <strong>{imp.rejectedRows}</strong> rows with errors
            </li>
            {imp.fileDuplicates ? (
              <li>
                <strong>{imp.fileDuplicates}</strong> repeated in the file (skipped)
              </li>
            ) : null}
          </ul>

          {rows.length ? (
            <div className="mb-4 overflow-x-auto rounded-md border border-slate-200">
              <table className="min-w-full text-sm" data-testid="import-preview">
                <caption className="bg-slate-50 px-3 py-2 text-left text-xs font-semibold text-slate-600">
                  Preview (first {rows.length} valid rows)
                </caption>
                <thead className="text-left text-xs text-slate-500">
                  <tr>
                    <th className="px-3 py-2">Row</th>
                    <th className="px-3 py-2">First Name</th>
                    <th className="px-3 py-2">Last Name</th>
                    <th className="px-3 py-2">Phone</th>
                    <th className="px-3 py-2">Email</th>
                    <th className="px-3 py-2">Company</th>
                  </tr>
                </thead>
                <tbody className="divide-y divide-slate-100">
                  {rows.map((r) => (
                    <tr key={r.rowNumber}>
                      <td className="px-3 py-2 text-slate-500">{r.rowNumber}</td>
                      <td className="px-3 py-2">{r.firstName}</td>
                      <td className="px-3 py-2">{r.lastName}</td>
                      <td className="px-3 py-2 font-mono">
                        {r.phone}
                        {r.unsendableReason ? (
                          <span className="ml-2 rounded bg-red-100 px-1.5 py-0.5 font-sans text-xs text-red-700" title={r.unsendableReason}>
                            Not sendable
                          </span>
                        ) : null}
                      </td>
                      <td className="px-3 py-2">{r.email}</td>
                      <td className="px-3 py-2">{r.company}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          ) : null}

          {errors.length ? (
            <div className="mb-4 rounded-md border border-red-200 bg-red-50 p-3 text-sm text-red-700" data-testid="import-errors">
              <p className="mb-1 font-semibold">Errors ({imp.errorCount})</p>
              <ul className="list-inside list-disc space-y-0.5">
                {errors.map((e) => (
                  <li key={e}>{e}</li>
                ))}
              </ul>
            </div>
          ) : null}

          <Form method="post" className="space-y-4">
            <fieldset className="text-sm">
              <legend className="mb-1 font-medium">Existing contacts (same phone or email)</legend>
              <label className="mr-6 inline-flex items-center gap-2">
                <input type="radio" name="duplicateMode" value="skip" defaultChecked={imp.duplicateMode !== "update"} /> Skip
              </label>
              <label className="inline-flex items-center gap-2">
                <input type="radio" name="duplicateMode" value="update" defaultChecked={imp.duplicateMode === "update"} /> Update
              </label>
            </fieldset>
            <div className="flex justify-end gap-2">
              <button type="submit" name="intent" value="cancel" formNoValidate className={secondary} disabled={busy}>
                Cancel
              </button>
              <button type="submit" name="intent" value="confirm" className={primary} disabled={busy || imp.validRows === 0}>
                {imp.validRows === 0 ? "No valid contacts" : busy ? "Importing..." : `Import ${imp.validRows} ${imp.validRows === 1 ? "contact" : "contacts"}`}
              </button>
            </div>
          </Form>
        </>
      ) : null}

      {importing ? (
        <div className="space-y-2" data-testid="import-progress">
          <noscript>
            <meta httpEquiv="refresh" content="2" />
          </noscript>
          <p className="text-sm">
            Imported {imp.processedRows.toLocaleString("en-US")} of {imp.validRows.toLocaleString("en-US")} contacts…
          </p>
          <div className="h-2 w-full overflow-hidden rounded bg-slate-200" role="progressbar" aria-valuemin={0} aria-valuemax={100} aria-valuenow={percent}>
            <div className="h-full bg-amber-500" style={{ width: `${percent}%` }} />
          </div>
          <p className="text-xs text-slate-500">You can close this dialog; the import continues in the background.</p>
        </div>
      ) : null}

      {imp.status === "completed" && summary ? (
        <div className="space-y-4">
          <p className="rounded-md border border-green-200 bg-green-50 p-3 text-sm text-green-800" data-testid="import-result">
            {summary}
          </p>
          {errors.length ? (
            <ul className="list-inside list-disc text-sm text-red-700">
              {errors.map((e) => (
                <li key={e}>{e}</li>
              ))}
            </ul>
          ) : null}
          <Form method="post" className="flex justify-end">
            <button type="submit" name="intent" value="done" className={primary}>
              Done
            </button>
          </Form>
        </div>
      ) : null}

      {imp.status === "failed" || imp.status === "cancelled" ? (
        <div className="space-y-4">
          <p role="alert" className="text-sm text-red-700">
            {imp.status === "failed" ? (imp.failureMessage ?? "The import failed.") : "This import was cancelled."}
          </p>
          <Link to={`/contacts${location.search}`} className={secondary}>
            Back to contacts
          </Link>
        </div>
      ) : null}
    </Dialog>
  );
}

export const ErrorBoundary = ContactNotFound;
