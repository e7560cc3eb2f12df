import type { LoaderFunctionArgs } from "@remix-run/cloudflare";
import { z } from "zod";
import { requireUser } from "~/http/guard.server";
import { EXPORT_FORMATS, exportContacts } from "~/contacts/export-contacts.server";
import { NO_CONTACTS_TO_DOWNLOAD } from "~/contacts/export";
import { redirectWithToast } from "~/http/toast.server";
import { viewerOf } from "~/contacts/contact-scope.server";

const query = z.object({
  format: z.enum(EXPORT_FORMATS).catch("csv"),
  q: z.string().trim().max(200).optional().catch(undefined),
});

/** GET /contacts/download?format=json|csv|txt&q=… — the current (searched) list as a file, streamed. */
export async function loader(args: LoaderFunctionArgs) {
  const me = await requireUser(args);
  const { format, q } = query.parse(Object.fromEntries(new URL(args.request.url).searchParams));
  const file = await exportContacts(args.context.db, q || null, format, viewerOf(me));
  if (!file) {
    return redirectWithToast(args.context, q ? `/contacts?${new URLSearchParams({ q })}` : "/contacts", {
      title: NO_CONTACTS_TO_DOWNLOAD,
      variant: "destructive",
    });
  }
  return new Response(file.stream, {
    headers: {
      "Content-Type": file.contentType,
      "Content-Disposition": `attachment; filename="${file.fileName}"`,
      "Cache-Control": "no-store",
    },
  });
}
