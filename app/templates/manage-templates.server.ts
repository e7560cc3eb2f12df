import { eq } from "drizzle-orm";
import type { Db } from "~/db/client.server";
import { pageNewestFirst } from "~/db/page-newest-first.server";
import { templates } from "~/db/schema";
import { AppError } from "~/lib/app-error";
import { extractVariables } from "~/messaging/render";
import {
  TEMPLATE_NOT_FOUND,
  TEMPLATE_REQUIRED,
  type CreateTemplateInput,
  type UpdateTemplateInput,
} from "./template-schema";

export const TEMPLATE_PAGE = 50;
export const MAX_TEMPLATE_PAGE = 200;

export type Template = typeof templates.$inferSelect;

export interface PublicTemplate {
  id: number;
  name: string;
  type: "sms" | "email";
  subject: string | null;
  content: string;
  variables: string[];
  createdAt: string;
  updatedAt: string;
}

export function publicTemplate(t: Template): PublicTemplate {
  return {
    id: t.id,
    name: t.name,
    type: t.type,
    subject: t.type === "email" ? (t.subject ?? null) : null,
    content: t.content,
    variables: t.variables,
    createdAt: t.createdAt.toISOString(),
    updatedAt: t.updatedAt.toISOString(),
  };
}

/** Newest first, keyset-paged on the primary key. Templates are shared by the team. */
export async function listTemplates(
  db: Db,
  opts: { after?: number | null; limit?: number } = {},
): Promise<{ items: PublicTemplate[]; nextCursor: number | null }> {
  const { rows, nextCursor } = await pageNewestFirst(db, templates, opts, {
    page: TEMPLATE_PAGE,
    max: MAX_TEMPLATE_PAGE,
  });
  return { items: rows.map(publicTemplate), nextCursor };
}

export async function getTemplate(db: Db, id: number): Promise<PublicTemplate> {
  const row = await db.select().from(templates).where(eq(templates.id, id)).get();
  if (!row) throw new AppError("not_found", TEMPLATE_NOT_FOUND);
  return publicTemplate(row);
}

/** `variables` is always computed here from the content's {{names}}, never taken from the caller. */
export async function createTemplate(
  db: Db,
  input: CreateTemplateInput,
  userId: number | null,
  now: Date,
): Promise<PublicTemplate> {
  const subject = input.type === "email" ? input.subject?.trim() || null : null;
  const [row] = await db
    .insert(templates)
    .values({
      name: input.name,
      type: input.type,
      subject,
      content: input.content,
      variables: extractVariables(input.content),
      createdBy: userId,
      createdAt: now,
      updatedAt: now,
    })
    .returning();
  return publicTemplate(row);
}

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

export async function deleteTemplate(db: Db, id: number): Promise<void> {
  const gone = await db.delete(templates).where(eq(templates.id, id)).returning({ id: templates.id });
  if (gone.length === 0) throw new AppError("not_found", TEMPLATE_NOT_FOUND);
}
