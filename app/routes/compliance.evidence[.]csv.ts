import type { LoaderFunctionArgs } from "@remix-run/cloudflare";
import { exportConsentEvidence } from "~/analytics/export-consent-evidence.server";
import { requireUser } from "~/auth/guard.server";
import { parseId } from "~/lib/ids";

/** GET /compliance/evidence.csv[?contact=<id>] — the consent evidence of one contact or all, streamed. */
export async function loader(args: LoaderFunctionArgs) {
  await requireUser(args);
  const contactId = parseId(new URL(args.request.url).searchParams.get("contact"));
  const day = args.context.clock().toISOString().slice(0, 10);
  return new Response(exportConsentEvidence(args.context.db, { contactId }), {
    headers: {
      "Content-Type": "text/csv; charset=utf-8",
      "Content-Disposition": `attachment; filename="consent-evidence-${contactId ? `contact-${contactId}-` : ""}${day}.csv"`,
      "Cache-Control": "no-store",
    },
  });
}
