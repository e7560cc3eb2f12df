import { and, asc, eq, gt, sql, type SQL } from "drizzle-orm";
import { activityRow } from "~/activity/log-activity.server";
import { runBatch, type Db } from "~/db/client.server";
import { contactImportRows, contactImports, type ContactImport } from "~/db/schema";
import { toContactValues } from "./contact-row.server";
import { loadUserContactScope } from "./contact-scope.server";
import type { StagedRow } from "./stage-contact-import.server";
import { upsertContactChunk, UPSERT_CHUNK } from "./upsert-contacts.server";

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
  const rows = staged.map((s) => {
    const data = JSON.parse(s.data) as StagedRow;
    // The row's own owner from the file wins over the import's (decision 050).
    return { ...toContactValues(data), ownerUserId: data.ownerUserId ?? null, home: data.home };
  });
  const lastId = staged.at(-1)!.id;
  await upsertContactChunk(db, rows, {
    // Whose existing contacts this import may update: its creator's (decision 048).
    scope: await loadUserContactScope(db, imp.createdBy),
    consentSource: `csv:${imp.fileName}`,
    // Only a file with a consent record names it on its contacts (decision 071).
    consentImportId: imp.consentSeller || imp.consentText ? imp.id : null,
    // A list whose consent covered appointment texts only (decision 072): no marketing texts its contacts.
    consentPurpose: imp.consentPurpose,
    mode: imp.duplicateMode,
    userId: imp.createdBy,
    ownerUserId: imp.ownerUserId,
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
    // raw-sql: guarded-insert
    db.run(
      sql`INSERT INTO activity_log (user_id, action, details, ip_address, created_at)
          SELECT ${entry.userId}, ${entry.action}, ${JSON.stringify(entry.details)}, NULL, ${now.getTime()}
          WHERE EXISTS (SELECT 1 FROM contact_imports WHERE id = ${imp.id} AND status = 'importing')`,
    ),
    db
      .update(contactImports)
      .set({ status: "completed", completedAt: now, updatedAt: now })
      .where(and(eq(contactImports.id, imp.id), eq(contactImports.status, "importing"))),
    // A quick send still needs the rows to find its recipients; it deletes them when it sends.
    ...(imp.purpose === "quick_send"
      ? []
      : [db.delete(contactImportRows).where(and(eq(contactImportRows.importId, imp.id), guard))]),
  ]);
}
