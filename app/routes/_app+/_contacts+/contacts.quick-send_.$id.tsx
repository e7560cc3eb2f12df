import { messagingConfig } from "~/messaging/messaging-config.server";
import { redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/cloudflare";
import { Form, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { Send } from "lucide-react";
import { z } from "zod";
import { requireUser } from "~/http/guard.server";
import { LocalTime } from "~/components/local-time";
import { useFailureToast } from "~/components/toaster";
import { Alert, Button, Card, Dialog, DialogClose, DialogFooter } from "~/components/ui";
import { ContactNotFound } from "~/contacts/contact-not-found";
import { ImportProgress, ImportStopped, StagedImportForm, StagedImportPreview } from "~/contacts/import-preview";
import { QUICK_SEND_NOT_FOUND, sendQuickUpload } from "~/quick-send/send-quick-upload.server";
import { viewQuickSend } from "~/quick-send/view-quick-send.server";
import { importEnqueuer } from "~/jobs/enqueue-import.server";
import { requirePublicUrl } from "~/messaging/check-public-url.server";
import { formAction } from "~/http/form-action.server";
import { intentError } from "~/http/form-schema";
import { routeId, throwAsResponse } from "~/http/http.server";
import { stagedImportIntents } from "~/http/import-route.server";
import { PreSendSummary } from "~/messaging/presend-summary";
import { unregisteredSenderWarnings } from "~/deliverability/ten-dlc-readiness.server";
import { formatCount } from "~/lib/format-count";

export const meta: MetaFunction = () => [{ title: "Quick Upload & Send — Helio" }];

/** Preview → contacts saved (progress) → pre-send check → sent (the broadcast's progress page). */
export async function loader(args: LoaderFunctionArgs) {
  const user = await requireUser(args);
  const { context } = args;
  const id = routeId(args.params.id, QUICK_SEND_NOT_FOUND);
  const view = await viewQuickSend(context.db, {
    id,
    userId: user.id,
    now: context.clock(),
    enqueue: importEnqueuer(context.queue),
    publicBaseUrl: messagingConfig(context.cloudflare.env).publicBaseUrl,
    variables: context.domain().hooks.variables,
  }).catch(throwAsResponse);
  if (view.quick.broadcastId) throw redirect(`/testing/sends/${view.quick.broadcastId}`);
  // Carriers block texts from a local number without a verified 10DLC campaign (decision 067).
  if (view.check) view.check.warnings.push(...(await unregisteredSenderWarnings(context.db, context.sms())));
  return view;
}

const intentSchema = z.object({ intent: z.enum(["import", "cancel", "send"], intentError()) });

export async function action(args: ActionFunctionArgs) {
  const { context } = args;
  const id = () => routeId(args.params.id, QUICK_SEND_NOT_FOUND);
  return formAction(
    args,
    { schema: intentSchema, title: "Failed to send messages", before: id },
    async (input, { user, actor }) => {
      const staged = stagedImportIntents(args, user.id, id());
      // Duplicate-aware ("skip"): a number that is already a contact keeps its record and still gets the message.
      if (input.intent === "import") return await staged.start("skip");
      if (input.intent === "cancel") return await staged.cancel("Quick send cancelled");
      requirePublicUrl(context.cloudflare.env);
      const deps = context.domain();
      const { broadcastId } = await sendQuickUpload(deps, id(), actor);
      return redirect(`/testing/sends/${broadcastId}`);
    },
  );
}

export default function QuickSendPreview() {
  const { import: imp, rows, errors, summary, quick, check } = useLoaderData<typeof loader>();
  const reply = useActionData<typeof action>();
  const busy = useNavigation().state !== "idle";
  const importing = imp.status === "importing";
  useFailureToast(
    reply,
    reply && !reply.ok
      ? {
          title: "Failed to send messages",
          description: "There was an error sending the bulk messages. Please try again.",
        }
      : null,
  );
  const n = (x: number) => formatCount(x);
  const title = imp.status === "staged" ? "Preview quick send" : importing ? "Saving contacts" : "Review and send";

  return (
    <Dialog title={title} size="lg">
      <div className="space-y-4">
        <p className="text-sm text-fg-muted">
          File: <span className="font-medium text-fg">{imp.fileName}</span>
          {quick.scheduledAt ? (
            <>
              {" "}
              · to be sent <LocalTime iso={quick.scheduledAt} />
            </>
          ) : null}
        </p>
        {reply && !reply.ok ? (
          <Alert tone="danger" data-testid="quick-send-error">
            {reply.message}
          </Alert>
        ) : null}

        <Card
          title={quick.previewName ? `The message as ${quick.previewName} gets it` : "Message preview"}
          data-testid="quick-preview"
        >
          <p className="text-sm whitespace-pre-wrap">{quick.preview}</p>
          <p className="mt-2 text-xs text-fg-subtle">
            {quick.preview.length} characters · {quick.previewSegments.segments} SMS{" "}
            {quick.previewSegments.segments === 1 ? "segment" : "segments"} ({quick.previewSegments.encoding})
          </p>
        </Card>

        {imp.status === "staged" ? (
          <>
            <StagedImportPreview
              counts={imp}
              rows={rows}
              errors={errors}
              errorCount={imp.errorCount}
              extra={["company", "address"]}
            />
            <StagedImportForm
              intent="import"
              busy={busy}
              label={
                busy
                  ? "Saving..."
                  : `Save ${n(imp.validRows)} ${imp.validRows === 1 ? "contact" : "contacts"} and review`
              }
            />
          </>
        ) : null}

        <ImportProgress status={imp.status} processed={imp.processedRows} total={imp.validRows} verb="Saved" />

        {imp.status === "completed" ? (
          <>
            {summary ? (
              <Alert tone="success" role="status" data-testid="import-result">
                {summary}
              </Alert>
            ) : null}
            {check ? (
              <Card title="Pre-send check" description="Review before anything is sent." data-testid="presend-check">
                <PreSendSummary check={check} channel="sms" />
              </Card>
            ) : null}
            <Form method="post">
              <DialogFooter>
                <DialogClose>Not now</DialogClose>
                <Button
                  type="submit"
                  name="intent"
                  value="send"
                  icon={Send}
                  disabled={busy || !check || check.recipients === 0}
                  data-testid="confirm-send"
                >
                  {!check || check.recipients === 0
                    ? "No contacts"
                    : `${quick.scheduledAt ? "Schedule" : "Send"} to ${n(check.recipients)}`}
                </Button>
              </DialogFooter>
            </Form>
          </>
        ) : null}

        <ImportStopped
          status={imp.status}
          failureMessage={imp.failureMessage}
          failed="Saving the contacts failed."
          cancelled="This quick send was cancelled."
        />
      </div>
    </Dialog>
  );
}

export const ErrorBoundary = ContactNotFound;
