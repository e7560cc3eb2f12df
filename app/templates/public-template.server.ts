import type { templates } from "~/db/schema";

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
