import type { Db } from "~/db/client.server";
import { templates } from "~/db/schema";
import { extractVariables } from "~/messaging/render";
import { assertNoLinkShortener } from "~/messaging/link-shorteners";
import { publicTemplate, type PublicTemplate } from "./public-template.server";
import type { CreateTemplateInput } from "./template-schema";

/** `variables` is always computed here from the content's {{names}}, never taken from the caller. */
export async function createTemplate(
  db: Db,
  input: CreateTemplateInput,
  userId: number | null,
  now: Date,
): Promise<PublicTemplate> {
  assertNoLinkShortener(input.type, input.content);
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
