import type { Db } from "~/db/client.server";
import { AppError } from "~/lib/app-error";
import { parseId } from "~/lib/ids";
import { TEMPLATE_PARAM } from "./template-schema";
import { getTemplate } from "./get-template.server";
import { listTemplates } from "./list-templates.server";
import type { PublicTemplate } from "./public-template.server";

/** How many templates a picker offers (newest first). */
export const PICKER_TEMPLATES = 100;

/**
 * For a loader with a TemplatePicker: the newest templates and, when the URL holds `?template=<id>` (the no-JS
 * picker), that template to pre-fill the compose form with. An unknown id picks nothing.
 */
export async function pickTemplate(
  db: Db,
  url: URL,
  /** The picker's templates, when the caller read them in its batch (selectNewestTemplates(PICKER_TEMPLATES)). */
  known?: PublicTemplate[],
): Promise<{ templates: PublicTemplate[]; picked: PublicTemplate | null }> {
  const templates = known ?? (await listTemplates(db, { limit: PICKER_TEMPLATES })).items;
  const id = parseId(url.searchParams.get(TEMPLATE_PARAM));
  if (id === null) return { templates, picked: null };
  const inList = templates.find((t) => t.id === id);
  if (inList) return { templates, picked: inList };
  try {
    return { templates, picked: await getTemplate(db, id) };
  } catch (e) {
    if (e instanceof AppError && e.code === "not_found") return { templates, picked: null };
    throw e;
  }
}
