import type { ContactImport } from "~/db/schema";

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
