import { eq } from "drizzle-orm";
import { bulkInsertStatements } from "~/db/bulk-update.server";
import { runBatch, type Db } from "~/db/client.server";
import { contactImportRows, contactImports, type ContactImport, type NewContactImport } from "~/db/schema";
import { AppError } from "~/lib/app-error";
import {
  CSV_PARSE_FAILED,
  parseContactsCsv,
  readContactRows,
  readCsvRecords,
  type ImportRow,
  type OwnerResolver,
  type ParseContactsResult,
  type SheetRecord,
} from "./csv-import";
import { MAX_UPLOAD_BYTES, UPLOAD_TOO_LARGE } from "./upload-limits";
import { dropInFileDuplicates } from "./upsert-contacts.server";
import { decodeText } from "./decode-text";

export { MAX_UPLOAD_BYTES, UPLOAD_TOO_LARGE };
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
  input: {
    fileName: string;
    parsed: ParseContactsResult;
    extra?: Pick<NewContactImport, "purpose" | "message" | "scheduledAt">;
  },
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
      ownerRows: unique.reduce((n, r) => n + (r.ownerUserId ? 1 : 0), 0),
      ...input.extra,
      createdAt: now,
      updatedAt: now,
    })
    .returning();
  // Each row leaves `unique` as its staging JSON is made.
  const staged = function* () {
    for (let i = 0; i < unique.length; i++) {
      const { rowNumber, ...data } = unique[i];
      unique[i] = undefined as never;
      yield { n: rowNumber, d: JSON.stringify(data) };
    }
  };
  await insertStagedRows(db, created.id, staged());
  return created;
}

/** Staged rows of an import: one INSERT per chunk of at most STAGE_CHUNK rows (and D1_VALUE_BUDGET bytes), one batch. */
async function stageRows(db: Db, importId: number, rows: Iterable<{ n: number; d: string }>) {
  const statements = bulkInsertStatements(
    contactImportRows,
    rows,
    (j) => ({ values: { importId, rowNumber: j.n, data: j.d } }),
    { maxRows: STAGE_CHUNK },
  ).map((q) => db.run(q));
  if (statements.length) await runBatch(db, statements);
}

/**
 * The staged rows of a new import, `{ n: row number, d: JSON }` as they are made, chunked by bytes (1,000 rows of
 * long fields are megabytes, and D1 refuses a bound value over 2 MB), all in one batch; on any failure the import
 * row goes too, so nothing half staged is left.
 */
async function insertStagedRows(db: Db, importId: number, rows: Iterable<{ n: number; d: string }>) {
  try {
    await stageRows(db, importId, rows);
  } catch (err) {
    await db.delete(contactImports).where(eq(contactImports.id, importId));
    throw err;
  }
}

/** What a streamed import was interrupted by, until it finishes (a Worker stopped mid-file leaves it failed, not half staged). */
const STAGING_INTERRUPTED = "The upload stopped before the whole file was read. Please upload it again.";

/**
 * Stages rows as they stream in (a spreadsheet read row by row, decision 019), with the same rules and outcome as
 * stageParsedRows: every STAGE_CHUNK unique valid rows go to D1 as they are reached, so neither the file's rows nor
 * their JSON are ever all in memory — only the phones and emails seen (in-file de-duplication keeps the first) and
 * the first KEEP_ERRORS error lines. The import row is written with the first chunk, marked failed until the end so
 * a Worker stopped mid-file leaves nothing that looks staged; any error removes it and its rows. Throws
 * `validation` with `fatal` (header unusable, no data row) or `noValidRows` (no valid row) before anything is saved.
 */
export async function stageStreamedRows(
  db: Db,
  input: {
    fileName: string;
    rows: AsyncIterable<SheetRecord>;
    requireLastName?: boolean;
    field?: string;
    noValidRows?: string;
    extra?: Pick<NewContactImport, "purpose" | "message" | "scheduledAt">;
    /** The file's Owner column, resolved per row (decision 050); absent = ignored. */
    owners?: OwnerResolver;
  },
  actor: { userId: number },
  now: Date,
): Promise<ContactImport> {
  let ownerRows = 0;
  const phones = new Set<string>();
  const emails = new Set<string>();
  let repeats = 0;
  let staged = 0;
  let chunk: { n: number; d: string }[] = [];
  let created: ContactImport | null = null;
  const base = {
    createdBy: actor.userId,
    fileName: input.fileName.slice(0, 200),
    ...input.extra,
    createdAt: now,
    updatedAt: now,
  };

  const flush = async () => {
    if (!chunk.length) return;
    const rows = chunk;
    chunk = [];
    if (!created)
      [created] = await db
        .insert(contactImports)
        .values({ ...base, status: "failed", failureMessage: STAGING_INTERRUPTED })
        .returning();
    await stageRows(db, created.id, rows);
  };

  try {
    const result = await readContactRows(
      input.rows,
      { requireLastName: input.requireLastName, keepErrors: KEEP_ERRORS, owners: input.owners },
      async (row) => {
        if (phones.has(row.phone) || (row.email && emails.has(row.email))) {
          repeats++;
          return;
        }
        phones.add(row.phone);
        if (row.email) emails.add(row.email);
        if (row.ownerUserId) ownerRows++;
        const { rowNumber, ...data } = row;
        chunk.push({ n: rowNumber, d: JSON.stringify(data) });
        staged++;
        if (chunk.length >= STAGE_CHUNK) await flush();
      },
    );
    if (result.fatal) throw new AppError("validation", result.fatal, { field: input.field });
    if (result.validRows === 0 && input.noValidRows)
      throw new AppError("validation", input.noValidRows, { field: input.field });
    const counts = {
      status: "staged" as const,
      failureMessage: null,
      totalRows: result.totalRows,
      validRows: staged,
      errorCount: result.errorCount,
      rejectedRows: result.totalRows - result.validRows,
      fileDuplicates: repeats,
      errors: result.errors,
      ownerRows,
      updatedAt: now,
    };
    // A small file (one chunk or none): the import and its rows in one batch, as stageParsedRows writes them.
    if (!created) {
      const [row] = await db
        .insert(contactImports)
        .values({ ...base, ...counts })
        .returning();
      created = row;
      if (chunk.length) {
        try {
          await stageRows(db, row.id, chunk);
        } catch (err) {
          await db.delete(contactImports).where(eq(contactImports.id, row.id));
          throw err;
        }
      }
      return row;
    }
    await flush();
    const [done] = await db
      .update(contactImports)
      .set(counts)
      .where(eq(contactImports.id, (created as ContactImport).id))
      .returning();
    return done;
  } catch (err) {
    if (created)
      await db
        .delete(contactImports)
        .where(eq(contactImports.id, (created as ContactImport).id))
        .catch(() => {});
    throw err;
  }
}

/**
 * The Upload CSV dialog's first step (decision 024): the file's header and non-blank records staged as they are
 * (row 1 = the header, each row's cells as a JSON array) with the import "mapping", for the Match columns step,
 * which turns them into contacts (matchImportColumns). All in one D1 batch: a failure leaves nothing behind.
 */
export async function stageCsvForMatching(
  db: Db,
  file: { name: string; text: string },
  actor: { userId: number },
  now: Date,
): Promise<ContactImport> {
  const csv = readCsvRecords(file.text);
  if (!csv || csv.records.length === 0) throw new AppError("validation", CSV_PARSE_FAILED);
  const [created] = await db
    .insert(contactImports)
    .values({
      createdBy: actor.userId,
      fileName: file.name.slice(0, 200),
      status: "mapping",
      totalRows: csv.records.length,
      createdAt: now,
      updatedAt: now,
    })
    .returning();
  const records = csv.records;
  const raw = function* () {
    yield { n: 1, d: JSON.stringify(csv.header) };
    for (let i = 0; i < records.length; i++) {
      const { row, cells } = records[i];
      records[i] = undefined as never;
      yield { n: row, d: JSON.stringify(cells) };
    }
  };
  await insertStagedRows(db, created.id, raw());
  return created;
}

/** The upload dialog's form: one file field named `file`; the rows wait for the Match columns step. */
export async function stageUploadedCsv(
  db: Db,
  file: unknown,
  actor: { userId: number },
  now: Date,
): Promise<ContactImport> {
  if (!(file instanceof File) || (!file.name && file.size === 0))
    throw new AppError("validation", "Please choose a .csv file to upload");
  if (!/\.csv$/i.test(file.name)) throw new AppError("validation", "Please upload a .csv file");
  if (file.size > MAX_UPLOAD_BYTES) {
    throw new AppError("payload_too_large", UPLOAD_TOO_LARGE);
  }
  return stageCsvForMatching(
    db,
    { name: file.name, text: decodeText(new Uint8Array(await file.arrayBuffer())) },
    actor,
    now,
  );
}
