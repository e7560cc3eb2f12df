import { eq } from "drizzle-orm";
import type { Db } from "~/db/client.server";
import { contactImports } from "~/db/schema";
import { AppError } from "~/lib/app-error";
import { getContactImport } from "./get-contact-import.server";

/** Drops an import that was previewed (or whose columns were being matched) but not confirmed (its staged rows cascade); a started one is a 409. */
export async function cancelContactImport(db: Db, id: number, userId: number) {
  const imp = await getContactImport(db, id, userId);
  if (imp.status !== "staged" && imp.status !== "mapping")
    throw new AppError("conflict", "This import has already started");
  await db.delete(contactImports).where(eq(contactImports.id, id)); // staged rows cascade
}
