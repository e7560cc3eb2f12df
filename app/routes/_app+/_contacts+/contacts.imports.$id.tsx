import { recordActivity } from "~/activity/log-activity.server";
import { redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/cloudflare";
import { Form, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { z } from "zod";
import { requireUser } from "~/http/guard.server";
import { Alert, Button, Dialog, DialogFooter, Field } from "~/components/ui";
import { loadOwnerPicker } from "~/contacts/load-owner-picker.server";
import { ownerOptions } from "~/contacts/owner-card";
import { ownerField } from "~/http/owner-form";
import { useFailureToast } from "~/components/toaster";
import { fieldProps } from "~/components/form-failure";
import { ColumnMatchForm } from "~/contacts/column-match";
import { ContactNotFound } from "~/contacts/contact-not-found";
import { matchImportColumns } from "~/contacts/match-import-columns.server";
import {
  importButtonLabel,
  importPlan,
  ImportProgress,
  ImportStopped,
  StagedImportForm,
  StagedImportPreview,
} from "~/contacts/import-preview";
import { contactImportDoneToast, viewContactImport } from "~/contacts/view-contact-import.server";
import { CONSENT_PURPOSES, DUPLICATE_MODES } from "~/db/schema";
import { CONSENT_PURPOSE_OPTIONS } from "~/contacts/consent-purpose";
import { formAction } from "~/http/form-action.server";
import { intentError } from "~/http/form-schema";
import { routeId, throwAsResponse } from "~/http/http.server";
import { stagedImportIntents } from "~/http/import-route.server";
import { redirectWithToast } from "~/http/toast.server";
import { importEnqueuer } from "~/jobs/enqueue-import.server";

export const meta: MetaFunction = () => [{ title: "Import contacts — Helio" }];

const IMPORT_NOT_FOUND = "Import not found";

/** The preview / progress / result page of one staged import (someone else's import is a 404 like a missing one). */
export async function loader(args: LoaderFunctionArgs) {
  const user = await requireUser(args);
  const { context } = args;
  const id = routeId(args.params.id, IMPORT_NOT_FOUND);
  // The owner select of the preview (decision 044): every active user for a superuser, else themselves.
  const [view, owners] = await Promise.all([
    viewContactImport(context.db, {
      id,
      userId: user.id,
      now: context.clock(),
      enqueue: importEnqueuer(context.queue),
    }).catch(throwAsResponse),
    loadOwnerPicker(context.db, null, { id: user.id, superuser: user.role === "superuser" }),
  ]);
  return { ...view, owners };
}

const intentSchema = z.discriminatedUnion(
  "intent",
  [
    z.object({
      intent: z.literal("confirm"),
      duplicateMode: z.enum(DUPLICATE_MODES).catch("skip"),
      // The owner of every contact in the file ("" = none), decision 044.
      ownerUserId: ownerField,
      // The list's consent record (decision 071): optional, bounded before anything is stored.
      consentSeller: z.string().trim().max(200, "The seller's name must be at most 200 characters").default(""),
      consentText: z.string().trim().max(2000, "The consent wording must be at most 2,000 characters").default(""),
      consentPurpose: z.enum(CONSENT_PURPOSES).catch("marketing"),
    }),
    // Match columns: one `col<i>` per column of the file ("" = ignore).
    z.object({ intent: z.literal("match") }).catchall(z.string()),
    z.object({ intent: z.literal("cancel") }),
    z.object({ intent: z.literal("done") }),
  ],
  intentError(),
);

export async function action(args: ActionFunctionArgs) {
  const id = () => routeId(args.params.id, IMPORT_NOT_FOUND);
  return formAction(args, { schema: intentSchema, before: id }, async (input, { user }) => {
    const staged = stagedImportIntents(args, user.id, id());
    if (input.intent === "confirm")
      return await staged.start(
        input.duplicateMode,
        { ownerUserId: input.ownerUserId, role: user.role },
        { seller: input.consentSeller || null, text: input.consentText || null, purpose: input.consentPurpose },
      );
    if (input.intent === "match") {
      await matchImportColumns(
        args.context.db,
        { id: id(), userId: user.id, role: user.role, columns: postedColumns(input) },
        args.context.clock(),
      );
      return redirect(new URL(args.request.url).pathname + new URL(args.request.url).search);
    }
    if (input.intent === "done")
      return redirectWithToast(
        args.context,
        staged.back,
        await contactImportDoneToast(args.context.db, id(), user.id).catch(throwAsResponse),
      );
    const cancelled = await staged.cancel("Import cancelled");
    await recordActivity(args, user.id, "cancel_contact_import", { importId: id() });
    return cancelled;
  });
}

/** The Match columns form's `col0`, `col1`, … as one list by column (a missing one is ignored). */
function postedColumns(form: Record<string, string>): string[] {
  const out: string[] = [];
  for (const [key, value] of Object.entries(form)) {
    const i = /^col(\d{1,4})$/.exec(key)?.[1];
    if (i !== undefined) out[Number(i)] = value;
  }
  return Array.from(out, (v) => v ?? "");
}

export default function ImportPreview() {
  const { import: imp, rows, errors, summary, match, owners } = useLoaderData<typeof loader>();
  const plan = importPlan(imp);
  const actionData = useActionData<typeof action>();
  const navigation = useNavigation();
  const busy = navigation.state !== "idle";

  useFailureToast(
    actionData,
    actionData?.message
      ? {
          title: "Failed to upload contacts",
          description: "There was an error uploading the contacts. Please try again.",
        }
      : null,
  );

  if (imp.status === "mapping" && match) {
    return (
      <Dialog title="Match columns" size="lg">
        <p className="mb-3 text-sm text-fg-muted">
          File: <span className="font-medium text-fg">{imp.fileName}</span> ({imp.totalRows}{" "}
          {imp.totalRows === 1 ? "row" : "rows"})
        </p>
        {actionData?.message ? (
          <Alert tone="danger" className="mb-4" data-testid="match-error">
            {actionData.message}
          </Alert>
        ) : null}
        <ColumnMatchForm match={match} busy={busy} />
      </Dialog>
    );
  }

  return (
    <Dialog
      title={
        imp.status === "staged"
          ? "Preview import"
          : imp.status === "completed"
            ? "Import complete"
            : "Importing contacts"
      }
      size="lg"
    >
      <p className="mb-3 text-sm text-fg-muted">
        File: <span className="font-medium text-fg">{imp.fileName}</span>
      </p>
      {actionData?.message ? (
        <Alert tone="danger" className="mb-4">
          {actionData.message}
        </Alert>
      ) : null}

      {imp.status === "staged" ? (
        <>
          <StagedImportPreview counts={imp} rows={rows} errors={errors} errorCount={imp.errorCount} />

          <StagedImportForm
            intent="confirm"
            busy={busy}
            disabled={imp.validRows === 0}
            label={busy && imp.validRows > 0 ? "Importing..." : importButtonLabel(imp)}
          >
            <fieldset className="text-sm">
              <legend className="mb-1 font-medium">Existing contacts (same phone or email)</legend>
              {plan && plan.existing ? (
                <p className="mb-2 text-fg-muted" data-testid="import-existing-explained">
                  {plan.byPhone
                    ? `${plan.byPhone} with the same phone: Skip leaves them unchanged, Update fills in this file's values. `
                    : ""}
                  {plan.byEmail ? `${plan.byEmail} with the same email but another phone: always skipped.` : ""}
                </p>
              ) : null}
              <label className="mr-6 inline-flex items-center gap-2">
                <input type="radio" name="duplicateMode" value="skip" defaultChecked={imp.duplicateMode !== "update"} />{" "}
                Skip
              </label>
              <label className="inline-flex items-center gap-2">
                <input
                  type="radio"
                  name="duplicateMode"
                  value="update"
                  defaultChecked={imp.duplicateMode === "update"}
                />{" "}
                Update
              </label>
            </fieldset>
            <Field
              as="select"
              label="Owner of these contacts"
              id="import-owner"
              name="ownerUserId"
              hint={
                imp.ownerRows > 0
                  ? `${imp.ownerRows} ${imp.ownerRows === 1 ? "row names its" : "rows name their"} own owner in the file's Owner column and keep${imp.ownerRows === 1 ? "s" : ""} it; this owner is given to the others.`
                  : "Given to every contact the file adds or updates. Without one, a lead is assigned in turn when it replies."
              }
              options={ownerOptions(owners.choices, owners.me)}
            />
            <fieldset className="space-y-3 text-sm" data-testid="import-consent">
              <legend className="mb-1 font-medium">Consent record (optional)</legend>
              <Field
                label="Consent obtained by"
                id="import-consent-seller"
                {...fieldProps(actionData, "consentSeller")}
                maxLength={200}
                hint="The seller named on the form where these leads agreed to be contacted (your company or the lead vendor's client)."
              />
              <Field
                as="textarea"
                label="Consent wording"
                id="import-consent-text"
                {...fieldProps(actionData, "consentText")}
                maxLength={2000}
                rows={3}
                hint="The exact text the leads agreed to. Kept with each contact this file adds, in its TCPA packet."
              />
              <Field
                as="select"
                label="Consent covers"
                id="import-consent-purpose"
                {...fieldProps(actionData, "consentPurpose", "marketing")}
                options={CONSENT_PURPOSE_OPTIONS}
                hint="Appointment texts only: no campaign, broadcast or Quick Send texts the contacts this file adds."
              />
            </fieldset>
          </StagedImportForm>
        </>
      ) : null}

      <ImportProgress status={imp.status} processed={imp.processedRows} total={imp.validRows} />

      {imp.status === "completed" && summary ? (
        <div className="space-y-4">
          <Alert tone="success" role="status" data-testid="import-result">
            {summary}
          </Alert>
          {errors.length ? (
            <ul className="list-inside list-disc text-sm text-danger-text">
              {errors.map((e) => (
                <li key={e}>{e}</li>
              ))}
            </ul>
          ) : null}
          <Form method="post">
            <DialogFooter>
              <Button type="submit" name="intent" value="done">
                Done
              </Button>
            </DialogFooter>
          </Form>
        </div>
      ) : null}

      <ImportStopped
        status={imp.status}
        failureMessage={imp.failureMessage}
        failed="The import failed."
        cancelled="This import was cancelled."
      />
    </Dialog>
  );
}

export const ErrorBoundary = ContactNotFound;
