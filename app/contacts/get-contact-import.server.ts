import { and, asc, eq } from "drizzle-orm";
import type { Db } from "~/db/client.server";
import { contactImportRows, contactImports, type ContactImport } from "~/db/schema";
import { AppError } from "~/lib/app-error";
import type { StagedRow } from "./stage-contact-import.server";

export const PREVIEW_ROWS = 10;

/** One import, only for the user who uploaded it: someone else's import is as invisible as a missing one (404). */
export async function getContactImport(db: Db, id: number, userId: number): Promise<ContactImport> {
  const imp = await db
    .select()
    .from(contactImports)
    .where(and(eq(contactImports.id, id), eq(contactImports.createdBy, userId)))
    .get();
  if (!imp) throw new AppError("not_found", "Import not found");
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
