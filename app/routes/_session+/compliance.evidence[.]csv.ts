import type { LoaderFunctionArgs } from "@remix-run/cloudflare";
import { openConsentEvidence } from "~/analytics/open-consent-evidence.server";
import { requireUser } from "~/http/guard.server";
import { isAppError } from "~/lib/app-error";
import { parseId } from "~/lib/ids";

/**
 * GET /compliance/evidence.csv[?contact=<id>] — the consent evidence of one contact (any signed-in user: the
 * contact's page links here) or of all contacts (superusers only, decision 023), streamed.
 */
export async function loader(args: LoaderFunctionArgs) {
  const me = await requireUser(args);
  const raw = new URL(args.request.url).searchParams.get("contact");
  const contactId = parseId(raw);
  if (raw !== null && contactId === null) throw new Response("Contact not found", { status: 404 });
  const day = args.context.clock().toISOString().slice(0, 10);
  let body: ReadableStream<Uint8Array>;
  try {
    body = await openConsentEvidence(args.context.db, { contactId }, me);
  } catch (err) {
    if (!isAppError(err)) throw err;
    throw new Response(err.message, { status: err.status, headers: { "Content-Type": "text/plain; charset=utf-8" } });
  }
  return new Response(body, {
    headers: {
      "Content-Type": "text/csv; charset=utf-8",
      "Content-Disposition": `attachment; filename="consent-evidence-${contactId ? `contact-${contactId}-` : ""}${day}.csv"`,
      "Cache-Control": "no-store",
    },
  });
}
