import { and, asc, eq, gt, sql, type SQL } from "drizzle-orm";
import { activityRow } from "~/activity/log-activity.server";
import { runBatch, type Db } from "~/db/client.server";
import { contactImportRows, contactImports, type ContactImport, type DuplicateMode } from "~/db/schema";
import { ContactError, toContactValues } from "./contact-row.server";
import { CSV_PARSE_FAILED, parseContactsCsv, type ImportRow } from "./csv-import";
import { dropInFileDuplicates, upsertContactChunk, UPSERT_CHUNK } from "./upsert-contacts.server";

// A Worker has 128 MB: the file, its parsed rows and their JSON must fit together (100k rows ≈ 9 MB).
export const MAX_UPLOAD_BYTES = 15 * 1024 * 1024;
export const UPLOAD_TOO_LARGE = `The file is too large (maximum ${MAX_UPLOAD_BYTES / 1024 / 1024} MB). Please split it into smaller files.`;
/** The multipart request may exceed the file by its framing; reading stops past this (read-body.server.ts). */
export const MAX_UPLOAD_REQUEST_BYTES = MAX_UPLOAD_BYTES + 64 * 1024;
export const NO_VALID_CONTACTS = "No valid contacts";
const STAGE_CHUNK = 2000; // rows per staging INSERT (one JSON parameter)
export const PREVIEW_ROWS = 10;
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
  if (!/\.csv$/i.test(file.name)) throw new ContactError(400, "Please upload a .csv file");
  const parsed = parseContactsCsv(file.text);
  if (parsed.fatal) throw new ContactError(400, parsed.fatal ?? CSV_PARSE_FAILED);
  const { unique, repeats } = dropInFileDuplicates(parsed.rows);

  const [created] = await db
    .insert(contactImports)
    .values({
      createdBy: actor.userId,
      fileName: file.name.slice(0, 200),
      status: "staged",
      totalRows: parsed.totalRows,
      validRows: unique.length,
      errorCount: parsed.errors.length,
      rejectedRows: parsed.totalRows - parsed.rows.length,
      fileDuplicates: repeats,
      errors: parsed.errors.slice(0, KEEP_ERRORS),
      createdAt: now,
      updatedAt: now,
    })
    .returning();
  const statements = [];
  for (let i = 0; i < unique.length; i += STAGE_CHUNK) {
    const json = JSON.stringify(unique.slice(i, i + STAGE_CHUNK).map(({ rowNumber, ...data }) => ({ n: rowNumber, d: JSON.stringify(data) })));
    statements.push(
      db.run(
        sql`INSERT INTO contact_import_rows (import_id, row_number, data)
            SELECT ${created.id}, json_extract(value,'$.n'), json_extract(value,'$.d') FROM json_each(${json})`,
      ),
    );
  }
  if (statements.length) {
    try {
      await runBatch(db, statements);
    } catch (err) {
      await db.delete(contactImports).where(eq(contactImports.id, created.id));
      throw err;
    }
  }
  return created;
}

/** The upload dialog's form: one file field named `file`. */
export async function stageUploadedCsv(db: Db, form: FormData, actor: { userId: number }, now: Date): Promise<ContactImport> {
  const file = form.get("file");
  if (!(file instanceof File) || (!file.name && file.size === 0)) throw new ContactError(400, "Please choose a .csv file to upload");
  if (!/\.csv$/i.test(file.name)) throw new ContactError(400, "Please upload a .csv file");
  if (file.size > MAX_UPLOAD_BYTES) {
    throw new ContactError(413, UPLOAD_TOO_LARGE);
  }
  return stageContactImport(db, { name: file.name, text: await file.text() }, actor, now);
}

export async function getContactImport(db: Db, id: number, userId: number): Promise<ContactImport> {
  const imp = await db
    .select()
    .from(contactImports)
    .where(and(eq(contactImports.id, id), eq(contactImports.createdBy, userId)))
    .get();
  if (!imp) throw new ContactError(404, "Import not found");
  return imp;
}

/** The first valid rows, for the preview. */
export async function previewRows(db: Db, importId: number, limit = PREVIEW_ROWS) {
  const rows = await db
    .select({ rowNumber: contactImportRows.rowNumber, data: contactImportRows.data })
    .from(contactImportRows)
    .where(eq(contactImportRows.importId, importId))
    .orderBy(asc(contactImportRows.id))
    .limit(limit);
  return rows.map((r) => ({ rowNumber: r.rowNumber, ...(JSON.parse(r.data) as StagedRow) }));
}

/** Moves a staged import to `importing` with the chosen duplicate handling (once: a second confirm is a no-op). */
export async function confirmContactImport(db: Db, id: number, userId: number, mode: DuplicateMode, now: Date) {
  const imp = await getContactImport(db, id, userId);
  if (imp.validRows === 0) throw new ContactError(400, NO_VALID_CONTACTS);
  if (imp.status !== "staged") return imp;
  await db
    .update(contactImports)
    .set({ status: "importing", duplicateMode: mode, updatedAt: now })
    .where(and(eq(contactImports.id, id), eq(contactImports.status, "staged")));
  return { ...imp, status: "importing" as const, duplicateMode: mode };
}

export async function cancelContactImport(db: Db, id: number, userId: number) {
  const imp = await getContactImport(db, id, userId);
  if (imp.status !== "staged") throw new ContactError(409, "This import has already started");
  await db.delete(contactImports).where(eq(contactImports.id, id)); // staged rows cascade
}

/**
 * Imports the next chunk of a confirmed import. Each chunk is one D1 transaction that also advances the
 * cursor, and every write is conditional on the cursor it read, so a redelivered or concurrent run of the
 * same chunk writes nothing. Returns whether the import is finished.
 */
export async function importNextChunk(
  db: Db,
  importId: number,
  now: Date,
  chunkSize = UPSERT_CHUNK,
  /** The import as this worker last read it; tests pass an old one to play a late redelivery. */
  snapshot?: ContactImport,
): Promise<{ done: boolean }> {
  const imp = snapshot ?? (await db.select().from(contactImports).where(eq(contactImports.id, importId)).get());
  if (!imp || imp.status !== "importing") return { done: true };
  const staged = await db
    .select()
    .from(contactImportRows)
    .where(and(eq(contactImportRows.importId, importId), gt(contactImportRows.id, imp.cursorRowId)))
    .orderBy(asc(contactImportRows.id))
    .limit(chunkSize);

  const guard = sql`(SELECT cursor_row_id FROM contact_imports WHERE id = ${importId}) = ${imp.cursorRowId}`;
  if (staged.length === 0) {
    await finish(db, imp, now, guard);
    return { done: true };
  }
  const rows = staged.map((s) => toContactValues(JSON.parse(s.data) as StagedRow));
  const lastId = staged.at(-1)!.id;
  await upsertContactChunk(db, rows, {
    consentSource: `csv:${imp.fileName}`,
    mode: imp.duplicateMode,
    userId: imp.createdBy,
    now,
    guard,
    // Runs last in the same transaction (the guard above saw the old cursor), so progress and counts
    // move exactly once per chunk.
    extra: (counts) => [
      db
        .update(contactImports)
        .set({
          cursorRowId: lastId,
          processedRows: sql`${contactImports.processedRows} + ${staged.length}`,
          createdCount: sql`${contactImports.createdCount} + ${counts.created}`,
          updatedCount: sql`${contactImports.updatedCount} + ${counts.updated}`,
          duplicateCount: sql`${contactImports.duplicateCount} + ${counts.duplicates}`,
          updatedAt: now,
        })
        .where(and(eq(contactImports.id, importId), eq(contactImports.cursorRowId, imp.cursorRowId))),
    ],
  });
  if (staged.length < chunkSize) return importNextChunk(db, importId, now, chunkSize);
  return { done: false };
}

async function finish(db: Db, imp: ContactImport, now: Date, guard: SQL) {
  const entry = activityRow("import_contacts", {
    userId: imp.createdBy,
    now,
    details: {
      importId: imp.id,
      fileName: imp.fileName,
      created: imp.createdCount,
      updated: imp.updatedCount,
      duplicates: imp.duplicateCount + imp.fileDuplicates,
      rejected: imp.rejectedRows,
    },
  });
  await runBatch(db, [
    // First, and only while the import is still `importing`: a racing or redelivered finish logs nothing.
    db.run(
      sql`INSERT INTO activity_log (user_id, action, details, ip_address, created_at)
          SELECT ${entry.userId}, ${entry.action}, ${JSON.stringify(entry.details)}, NULL, ${now.getTime()}
          WHERE EXISTS (SELECT 1 FROM contact_imports WHERE id = ${imp.id} AND status = 'importing')`,
    ),
    db
      .update(contactImports)
      .set({ status: "completed", completedAt: now, updatedAt: now })
      .where(and(eq(contactImports.id, imp.id), eq(contactImports.status, "importing"))),
    db.delete(contactImportRows).where(and(eq(contactImportRows.importId, imp.id), guard)),
  ]);
}

/** "Created X, updated Y, skipped Z duplicates, rejected W rows" (duplicates include repeats inside the file). */
export function importResultSummary(imp: ContactImport): string {
  return `Created ${imp.createdCount}, updated ${imp.updatedCount}, skipped ${imp.duplicateCount + imp.fileDuplicates} duplicates, rejected ${imp.rejectedRows} rows`;
}

/**
 * SPEC §5: the first 5 errors, then "... and K more errors". Only the first 100 error lines are kept, so K comes
 * from the stored total rather than the kept list.
 */
export function importErrorPreview(imp: Pick<ContactImport, "errors" | "errorCount">, shown = 5): string[] {
  const visible = imp.errors.slice(0, shown);
  const remaining = imp.errorCount - visible.length;
  return remaining > 0 ? [...visible, `... and ${remaining} more errors`] : visible;
}

/**
 * Confirms an import and works one chunk inline, so a small file is finished when the response comes back;
 * anything left goes to the queue. Returns the import as it stands afterwards.
 */
export async function startContactImport(
  db: Db,
  opts: { id: number; userId: number; mode: DuplicateMode; now: () => Date; enqueue: (importId: number) => Promise<void> },
): Promise<ContactImport> {
  const confirmed = await confirmContactImport(db, opts.id, opts.userId, opts.mode, opts.now());
  if (confirmed.status === "importing") {
    const { done } = await importNextChunk(db, opts.id, opts.now());
    if (!done) await opts.enqueue(opts.id);
  }
  return getContactImport(db, opts.id, opts.userId);
}

/** An import with no progress for this long has probably lost its queue message; re-enqueueing is harmless. */
export const STALLED_AFTER_MS = 60_000;
export function isStalled(imp: ContactImport, now: Date): boolean {
  return imp.status === "importing" && now.getTime() - imp.updatedAt.getTime() > STALLED_AFTER_MS;
}

/**
 * Re-enqueues an import that has made no progress for a while (its queue message lost or dead-lettered).
 * Touching updatedAt first means polling pages enqueue at most once per stall window.
 */
export async function resumeIfStalled(db: Db, imp: ContactImport, now: Date, enqueue: (importId: number) => Promise<void>) {
  if (!isStalled(imp, now)) return false;
  const touched = await db
    .update(contactImports)
    .set({ updatedAt: now })
    .where(and(eq(contactImports.id, imp.id), eq(contactImports.status, "importing"), eq(contactImports.updatedAt, imp.updatedAt)))
    .returning({ id: contactImports.id });
  if (touched.length) await enqueue(imp.id);
  return touched.length > 0;
}
