import { eq } from "drizzle-orm";
import type { Db } from "~/db/client.server";
import { templates } from "~/db/schema";
import { AppError } from "~/lib/app-error";
import { extractVariables } from "~/messaging/render";
import { assertNoLinkShortener } from "~/messaging/link-shorteners";
import { publicTemplate, type PublicTemplate } from "./public-template.server";
import { TEMPLATE_NOT_FOUND, TEMPLATE_REQUIRED, type UpdateTemplateInput } from "./template-schema";

export async function updateTemplate(
  db: Db,
  id: number,
  input: UpdateTemplateInput,
  now: Date,
): Promise<PublicTemplate> {
  const current = await db.select().from(templates).where(eq(templates.id, id)).get();
  if (!current) throw new AppError("not_found", TEMPLATE_NOT_FOUND);
  const name = input.name ?? current.name;
  const content = input.content ?? current.content;
  if (!name.trim() || !content.trim()) throw new AppError("validation", TEMPLATE_REQUIRED);
  const type = input.type ?? current.type;
  assertNoLinkShortener(type, content);
  const subject =
    type === "email" ? (input.subject === undefined ? current.subject : input.subject?.trim() || null) : null;
  const [row] = await db
    .update(templates)
    .set({ name, content, type, subject, variables: extractVariables(content), updatedAt: now })
    .where(eq(templates.id, id))
    .returning();
  if (!row) throw new AppError("not_found", TEMPLATE_NOT_FOUND);
  return publicTemplate(row);
}
