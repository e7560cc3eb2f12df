import type { Db } from "~/db/client.server";
import type { ContactImport, Role } from "~/db/schema";
import { importOwnerResolver } from "~/contacts/resolve-import-owners.server";
import { AppError } from "~/lib/app-error";
import { MAX_CONTENT } from "~/messaging/check-send-request.server";
import { CSV_PARSE_FAILED, parseContactsCsv } from "~/contacts/csv-import";
import { readContactsFile } from "~/contacts/read-contacts-file.server";
import { stageParsedRows, stageStreamedRows } from "~/contacts/stage-contact-import.server";

// SPEC §5 / §8 texts.
export const NO_VALID_CONTACTS_FOUND = "No valid contacts found";
export const MESSAGE_REQUIRED = "Message required";

export type QuickSendInput = { file: File | null; message: string; scheduledAt: Date | null };

/**
 * Step 1 of Quick Upload & Send: checks the message, reads the .csv/.xlsx/.xls on the server with the contacts
 * import's rules (a phone and a first name per row) and stages the rows with the message, so the preview, the
 * duplicate-aware import and the send all use the same data. Nothing is saved when the file has no valid row.
 * Spreadsheets are staged as their rows stream in, so a 10 MB .xlsx stays inside a Worker's memory (decision 019).
 */
export async function stageQuickSend(
  db: Db,
  input: QuickSendInput,
  actor: { userId: number; role?: Role },
  now: Date,
): Promise<ContactImport> {
  const message = input.message.trim();
  if (!message) throw new AppError("validation", MESSAGE_REQUIRED, { field: "message" });
  if (message.length > MAX_CONTENT)
    throw new AppError("validation", `Message must be at most ${MAX_CONTENT} characters`, { field: "message" });
  if (input.scheduledAt && Number.isNaN(input.scheduledAt.getTime()))
    throw new AppError("validation", "Please enter a valid date and time", { field: "scheduledAt" });
  const { file } = input;
  if (!file || (!file.name && file.size === 0))
    throw new AppError("validation", "Please choose a file to upload", { field: "file" });
  const scheduledAt = input.scheduledAt && input.scheduledAt.getTime() > now.getTime() ? input.scheduledAt : null;
  const extra = { purpose: "quick_send" as const, message, scheduledAt };
  // A file's Owner column (decision 050): the active users read once for the whole file.
  const owners = await importOwnerResolver(db, actor);
  const contents = await readContactsFile(file).catch((err) => {
    throw err instanceof AppError ? new AppError(err.code, err.message, { field: "file", cause: err }) : err;
  });
  if (contents.kind === "sheet") {
    // Spreadsheets stream: rows are staged as they are read (decision 019).
    return stageStreamedRows(
      db,
      {
        fileName: file.name,
        rows: contents.rows,
        requireLastName: false,
        field: "file",
        noValidRows: NO_VALID_CONTACTS_FOUND,
        extra,
        owners,
      },
      actor,
      now,
    ).catch((err) => {
      throw err instanceof AppError && !err.field
        ? new AppError(err.code, err.message, { field: "file", cause: err })
        : err;
    });
  }
  const parsed = parseContactsCsv(contents.text, { requireLastName: false, owners });
  if (parsed.fatal) throw new AppError("validation", parsed.fatal ?? CSV_PARSE_FAILED, { field: "file" });
  if (parsed.rows.length === 0) throw new AppError("validation", NO_VALID_CONTACTS_FOUND, { field: "file" });
  return stageParsedRows(db, { fileName: file.name, parsed, extra }, actor, now);
}
