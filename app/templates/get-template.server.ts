import { eq } from "drizzle-orm";
import type { Db } from "~/db/client.server";
import { templates } from "~/db/schema";
import { AppError } from "~/lib/app-error";
import { publicTemplate, type PublicTemplate } from "./public-template.server";
import { TEMPLATE_NOT_FOUND } from "./template-schema";

export async function getTemplate(db: Db, id: number): Promise<PublicTemplate> {
  const row = await db.select().from(templates).where(eq(templates.id, id)).get();
  if (!row) throw new AppError("not_found", TEMPLATE_NOT_FOUND);
  return publicTemplate(row);
}
