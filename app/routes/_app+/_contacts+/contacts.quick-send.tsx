import { redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/cloudflare";
import { Form, useActionData, useNavigation } from "@remix-run/react";
import { requireUser } from "~/http/guard.server";
import { readSchedule, scheduleFields } from "~/campaigns/schedule-schema";
import { ScheduleFields } from "~/campaigns/schedule-fields";
import { useFailureToast } from "~/components/toaster";
import { Alert, Dialog, DialogActions, Field } from "~/components/ui";
import { listSearch } from "~/contacts/list-search";
import { MAX_UPLOAD_REQUEST_BYTES, UPLOAD_TOO_LARGE } from "~/contacts/stage-contact-import.server";
import { MAX_SHEET_ROWS, MAX_UPLOAD_BYTES, MAX_XLS_BYTES } from "~/contacts/upload-limits";
import { stageQuickSend } from "~/quick-send/stage-quick-send.server";
import { fieldErrorsOf, postedValue } from "~/components/form-failure";
import { formAction } from "~/http/form-action.server";
import { z } from "zod";
import { formatCount } from "~/lib/format-count";

export const meta: MetaFunction = () => [{ title: "Quick Upload & Send — Helio" }];

// Nothing to load: only the session is checked.
export const loader = async (args: LoaderFunctionArgs) => {
  await requireUser(args);
  return null;
};

// The file and the message are checked by stageQuickSend (its messages name the field); the time here.
const quickSendForm = z
  .object({
    file: z.unknown(),
    message: z.string().default(""),
    ...scheduleFields,
  })
  .transform((f, ctx) => {
    const at = readSchedule(f, ctx);
    if (at === null) return z.NEVER;
    return { file: f.file instanceof File ? f.file : null, message: f.message, scheduledAt: at ?? null };
  });

/** Step 1: the file and the message are checked and staged; the next page previews them before anything is saved. */
export async function action(args: ActionFunctionArgs) {
  const { request, context } = args;
  return formAction(
    args,
    { schema: quickSendForm, limit: { maxBytes: MAX_UPLOAD_REQUEST_BYTES, message: UPLOAD_TOO_LARGE } },
    async (input, { user }) => {
      const staged = await stageQuickSend(context.db, input, { userId: user.id, role: user.role }, context.clock());
      return redirect(`/contacts/quick-send/${staged.id}${listSearch(request)}`);
    },
  );
}

export default function QuickUploadAndSend() {
  const reply = useActionData<typeof action>();
  const pending = useNavigation().state === "submitting";
  // SPEC's "Upload failed" toast is about the file; a refused message or time says what to fix instead (issue 24).
  const aboutFile = !reply?.field || reply.field === "file";
  useFailureToast(
    reply,
    reply?.message
      ? aboutFile
        ? { title: "Upload failed", description: "Please check your file format and try again." }
        : { title: "Please check the form", description: reply.message }
      : null,
  );
  const v = {
    message: postedValue(reply, "message"),
    schedule: postedValue(reply, "schedule") === "later" ? ("later" as const) : ("now" as const),
    startAt: postedValue(reply, "startAt"),
    tz: postedValue(reply, "tz"),
  };
  const errorOn = (field: string) => fieldErrorsOf(reply, field) ?? undefined;
  return (
    <Dialog
      title="Quick Upload & Send"
      description="Text everyone in a spreadsheet: they are saved as contacts, then sent your message."
      size="lg"
    >
      <Form method="post" encType="multipart/form-data" className="space-y-4" data-testid="quick-send-form">
        {reply?.message && !["file", "message", "startAt"].includes(reply.field ?? "") ? (
          <Alert tone="danger" data-testid="quick-send-error">
            {reply.message}
          </Alert>
        ) : null}
        <Field
          label="File"
          id="quick-file"
          type="file"
          name="file"
          accept=".csv,.xlsx,.xls"
          required
          hint={`.csv or .xlsx up to ${MAX_UPLOAD_BYTES / 1024 / 1024} MB, or an older .xls up to ${MAX_XLS_BYTES / 1024 / 1024} MB (save a bigger one as .xlsx or CSV), at most ${formatCount(MAX_SHEET_ROWS)} rows. Each row needs a phone and a first name; last name, company and address are used when present.`}
          errors={errorOn("file")}
        />
        <Field
          as="textarea"
          label="Message"
          name="message"
          rows={4}
          defaultValue={v.message ?? ""}
          hint="#FIRST_NAME#, #LAST_NAME#, #COMPANY# and #ADDRESS# are replaced for each contact (left empty when the file has no value)."
          errors={errorOn("message")}
        />
        <ScheduleFields
          schedule={v.schedule ?? "now"}
          startAt={v.startAt ?? ""}
          tz={v.tz ?? ""}
          errors={errorOn("startAt")}
          labels={{
            now: "Send as soon as the contacts are saved",
            later: "Send at a date and time",
            field: "Send date and time",
          }}
        />
        <p className="text-xs text-fg-subtle">
          Nothing is saved or sent yet: the next step shows the contacts and the message as the first of them will get
          it.
        </p>
        <DialogActions label="Upload and preview" pendingLabel="Uploading..." pending={pending} />
      </Form>
    </Dialog>
  );
}
