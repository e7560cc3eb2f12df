import type { Db } from "~/db/client.server";
import { importErrorPreview, importResultSummary } from "./contact-import-summary";
import { getContactImport, previewRows } from "./get-contact-import.server";
import { loadColumnMatch } from "./match-import-columns.server";
import { assessPhone } from "./phone";
import { resumeIfStalled } from "./resume-stalled-import.server";

/**
 * What the Match columns / preview / progress / result page of one staged import shows. Viewing also re-enqueues an import
 * that has stalled (its queue message lost), so a user watching the page never waits forever.
 */
export async function viewContactImport(
  db: Db,
  opts: { id: number; userId: number; now: Date; enqueue: (importId: number) => Promise<void> },
) {
  const imp = await getContactImport(db, opts.id, opts.userId);
  await resumeIfStalled(db, imp, opts.now, opts.enqueue);
  const rows = imp.status === "staged" ? await previewRows(db, imp.id) : [];
  // Before the preview, the Match columns step (decision 024).
  const match = imp.status === "mapping" ? await loadColumnMatch(db, imp.id) : null;
  return {
    import: {
      id: imp.id,
      fileName: imp.fileName,
      status: imp.status,
      duplicateMode: imp.duplicateMode,
      totalRows: imp.totalRows,
      validRows: imp.validRows,
      rejectedRows: imp.rejectedRows,
      fileDuplicates: imp.fileDuplicates,
      existingPhoneRows: imp.existingPhoneRows,
      existingEmailRows: imp.existingEmailRows,
      processedRows: imp.processedRows,
      errorCount: imp.errorCount,
      failureMessage: imp.failureMessage,
      purpose: imp.purpose,
      ownerRows: imp.ownerRows,
    },
    rows: rows.map((r) => {
      const a = assessPhone(r.phone);
      return { ...r, unsendableReason: a.sendable ? null : a.reason };
    }),
    match,
    errors: importErrorPreview(imp),
    summary: imp.status === "completed" ? importResultSummary(imp) : null,
  };
}

/** The toast for leaving the page ("Done"): the result when finished, otherwise that it goes on in the background. */
export async function contactImportDoneToast(db: Db, id: number, userId: number) {
  const imp = await getContactImport(db, id, userId);
  return imp.status === "completed"
    ? { title: "Contacts imported", description: importResultSummary(imp) }
    : { title: "Import in progress", description: "The import continues in the background." };
}
