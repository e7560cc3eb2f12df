import type { LoaderFunctionArgs } from "@remix-run/cloudflare";
import { requireUser } from "~/http/guard.server";
import { CONTACTS_TEMPLATE_CSV, CONTACTS_TEMPLATE_FILENAME } from "~/contacts/contacts-template";

/** GET /contacts/template.csv — the Upload CSV template (SPEC §5: contacts_template.csv, two sample rows). */
export async function loader(args: LoaderFunctionArgs) {
  await requireUser(args);
  return new Response(CONTACTS_TEMPLATE_CSV, {
    headers: {
      "Content-Type": "text/csv; charset=utf-8",
      "Content-Disposition": `attachment; filename="${CONTACTS_TEMPLATE_FILENAME}"`,
    },
  });
}
