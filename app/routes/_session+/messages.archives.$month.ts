import type { LoaderFunctionArgs } from "@remix-run/cloudflare";
import { requireUser } from "~/http/guard.server";
import { throwAsResponse } from "~/http/http.server";
import { parseId } from "~/lib/ids";
import { downloadMessageArchive } from "~/message-center/download-message-archive.server";

/** GET /messages/archives/<yyyy-mm>[?file=n] — a month of archived messages from R2, streamed (superusers only). */
export async function loader(args: LoaderFunctionArgs) {
  await requireUser(args, { role: "superuser" });
  const file = new URL(args.request.url).searchParams.get("file");
  const { body, fileName } = await downloadMessageArchive(
    args.context.db,
    args.context.cloudflare.env.ARCHIVE,
    args.params.month ?? "",
    file === null ? 1 : (parseId(file) ?? 0),
  ).catch(throwAsResponse);
  return new Response(body, {
    headers: {
      "Content-Type": "application/gzip",
      "Content-Disposition": `attachment; filename="${fileName}"`,
      "Cache-Control": "no-store",
    },
  });
}
