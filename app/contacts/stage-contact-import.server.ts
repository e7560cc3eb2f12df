import { eq, sql } from "drizzle-orm";
import { chunkByBytes } from "~/db/chunk-by-bytes.server";
import { runBatch, type Db } from "~/db/client.server";
import { contactImports, type ContactImport, type NewContactImport } from "~/db/schema";
import { AppError } from "~/lib/app-error";
import { CSV_PARSE_FAILED, parseContactsCsv, type ImportRow, type ParseContactsResult } from "./csv-import";
import { dropInFileDuplicates } from "./upsert-contacts.server";

// A Worker has 128 MB for everything: the request, the file's text, its parsed rows and the staging JSON. Measured in
// Node: a 14 MB file (170,000 rows) peaked at 121 MB of heap with the rows and the JSON alive together, 78 MB with
// each chunk's rows let go as its JSON is built; a 10 MB file (~115,000 contacts, above the 100k a team is sized for)
// peaks at 57 MB, which leaves room for the request itself.
export const MAX_UPLOAD_BYTES = 10 * 1024 * 1024;
export const UPLOAD_TOO_LARGE = `The file is too large (maximum ${MAX_UPLOAD_BYTES / 1024 / 1024} MB). Please split it into smaller files.`;
/** The multipart request may exceed the file by its framing; reading stops past this (read-body.server.ts). */
export const MAX_UPLOAD_REQUEST_BYTES = MAX_UPLOAD_BYTES + 64 * 1024;
const STAGE_CHUNK = 2000; // rows per staging INSERT at most (one JSON parameter of at most D1_VALUE_BUDGET bytes)
const KEEP_ERRORS = 100;

export type StagedRow = Omit<ImportRow, "rowNumber">;

/**
 * Parses an uploaded CSV on the server and stages its valid, de-duplicated rows, so the preview and the
 * import use exactly the same data. All in one D1 batch: a failure leaves nothing behind.
 */
export async function stageContactImport(
  db: Db,
  file: { name: string; text: string },
  actor: { userId: number },
  now: Date,
): Promise<ContactImport> {
  if (!/\.csv$/i.test(file.name)) throw new AppError("validation", "Please upload a .csv file");
  const parsed = parseContactsCsv(file.text);
  if (parsed.fatal) throw new AppError("validation", parsed.fatal ?? CSV_PARSE_FAILED);
  return stageParsedRows(db, { fileName: file.name, parsed }, actor, now);
}

/**
 * Stages parsed rows (and what a quick send adds: its purpose, message and time) as one import. Consumes
 * `parsed.rows`: each chunk's row objects are let go once its JSON is built, so rows and JSON never peak together.
 */
export async function stageParsedRows(
  db: Db,
  input: { fileName: string; parsed: ParseContactsResult; extra?: Pick<NewContactImport, "purpose" | "message" | "scheduledAt"> },
  actor: { userId: number },
  now: Date,
): Promise<ContactImport> {
  const { parsed } = input;
  const { unique, repeats } = dropInFileDuplicates(parsed.rows);
  const rejectedRows = parsed.totalRows - parsed.rows.length;
  parsed.rows.length = 0;

  const [created] = await db
    .insert(contactImports)
    .values({
      createdBy: actor.userId,
      fileName: input.fileName.slice(0, 200),
      status: "staged",
      totalRows: parsed.totalRows,
      validRows: unique.length,
      errorCount: parsed.errors.length,
      rejectedRows,
      fileDuplicates: repeats,
      errors: parsed.errors.slice(0, KEEP_ERRORS),
      ...input.extra,
      createdAt: now,
      updatedAt: now,
    })
    .returning();
  // Each row leaves `unique` as its staging JSON is made; chunks are split by bytes (1,000 rows of long fields are
  // megabytes, and D1 refuses a bound value over 2 MB), all in the one batch.
  const staged = function* () {
    for (let i = 0; i < unique.length; i++) {
      const { rowNumber, ...data } = unique[i];
      unique[i] = undefined as never;
      yield { n: rowNumber, d: JSON.stringify(data) };
    }
  };
  try {
    const statements = Array.from(chunkByBytes(staged(), { maxRows: STAGE_CHUNK }), ({ json }) =>
      db.run(
        sql`INSERT INTO contact_import_rows (import_id, row_number, data)
            SELECT ${created.id}, json_extract(value,'$.n'), json_extract(value,'$.d') FROM json_each(${json})`,
      ),
    );
    if (statements.length) await runBatch(db, statements);
  } catch (err) {
    await db.delete(contactImports).where(eq(contactImports.id, created.id));
    throw err;
  }
  return created;
}

/** The upload dialog's form: one file field named `file`. */
export async function stageUploadedCsv(db: Db, form: FormData, actor: { userId: number }, now: Date): Promise<ContactImport> {
  const file = form.get("file");
  if (!(file instanceof File) || (!file.name && file.size === 0)) throw new AppError("validation", "Please choose a .csv file to upload");
  if (!/\.csv$/i.test(file.name)) throw new AppError("validation", "Please upload a .csv file");
  if (file.size > MAX_UPLOAD_BYTES) {
    throw new AppError("payload_too_large", UPLOAD_TOO_LARGE);
  }
  return stageContactImport(db, { name: file.name, text: await file.text() }, actor, now);
}
