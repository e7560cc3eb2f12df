import { eq } from "drizzle-orm";
import type { Db } from "~/db/client.server";
import { templates } from "~/db/schema";
import { AppError } from "~/lib/app-error";
import { TEMPLATE_NOT_FOUND } from "./template-schema";

export async function deleteTemplate(db: Db, id: number): Promise<void> {
  const gone = await db.delete(templates).where(eq(templates.id, id)).returning({ id: templates.id });
  if (gone.length === 0) throw new AppError("not_found", TEMPLATE_NOT_FOUND);
}
