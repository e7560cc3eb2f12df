import type { Db } from "~/db/client.server";
import { checkBroadcast } from "~/messaging/check-broadcast.server";
import { QUICK_SEND_PREVIEW_DEFAULTS, renderQuickSend } from "~/messaging/render";
import { smsSegments } from "~/messaging/segments";
import { getContactImport, previewRows } from "~/contacts/get-contact-import.server";
import { quickSendRecipients, QUICK_SEND_NOT_FOUND } from "./send-quick-upload.server";
import { viewContactImport } from "~/contacts/view-contact-import.server";
import { AppError } from "~/lib/app-error";
import type { VariableProvider } from "~/messaging/pipeline-hooks";

/**
 * What the Quick Upload & Send page shows at each step: the staged rows with the message as the first contact
 * (or John Doe of ABC Corp) will get it; the import's progress; then the pre-send check over the saved contacts.
 */
export async function viewQuickSend(
  db: Db,
  opts: {
    id: number;
    userId: number;
    now: Date;
    enqueue: (importId: number) => Promise<void>;
    /** PUBLIC_BASE_URL: the pre-send check counts the segments of the text with its tracked links (decision 068). */
    publicBaseUrl?: string;
    /** The pipeline's variable providers: the check renders the Solar variables as the consumer will. */
    variables: readonly VariableProvider[];
  },
) {
  const imp = await getContactImport(db, opts.id, opts.userId);
  if (imp.purpose !== "quick_send" || !imp.message) throw new AppError("not_found", QUICK_SEND_NOT_FOUND);
  const view = await viewContactImport(db, opts);
  // Staged rows stay until the send (the preview page lists the first ones only while staged).
  const first = view.rows[0] ?? (imp.broadcastId ? undefined : (await previewRows(db, imp.id, 1))[0]);
  const preview = renderQuickSend(imp.message, first ?? QUICK_SEND_PREVIEW_DEFAULTS);
  const ready = imp.status === "completed" && !imp.broadcastId;
  const check = ready
    ? await checkBroadcast(
        db,
        {
          type: "sms",
          content: imp.message,
          contactIds: await quickSendRecipients(db, imp.id),
          scheduledAt: imp.scheduledAt,
          publicBaseUrl: opts.publicBaseUrl,
          senderId: opts.userId,
          variables: opts.variables,
        },
        opts.now,
      )
    : null;
  return {
    ...view,
    quick: {
      message: imp.message,
      scheduledAt: imp.scheduledAt?.toISOString() ?? null,
      broadcastId: imp.broadcastId,
      preview,
      previewSegments: smsSegments(preview),
      previewName: first ? `${first.firstName} ${first.lastName}`.trim() : null,
    },
    check,
  };
}
