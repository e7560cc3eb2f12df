import type { LoaderFunctionArgs } from "@remix-run/cloudflare";
import { buildTcpaPacket, tcpaPacketCsv } from "~/contacts/build-tcpa-packet.server";
import { viewerOf } from "~/contacts/contact-scope.server";
import { CONTACT_NOT_FOUND } from "~/contacts/get-contact.server";
import { requireUser } from "~/http/guard.server";
import { routeId, throwAsResponse } from "~/http/http.server";

/** GET /contacts/:id/tcpa-packet.csv — the packet's entries as CSV (issue 29 item 4); the same scope as the page. */
export async function loader(args: LoaderFunctionArgs) {
  const me = await requireUser(args);
  const id = routeId(args.params.id, CONTACT_NOT_FOUND);
  const packet = await buildTcpaPacket(args.context.db, id, viewerOf(me), args.context.clock()).catch(throwAsResponse);
  const day = new Date(packet.generatedAt).toISOString().slice(0, 10);
  return new Response(tcpaPacketCsv(packet), {
    headers: {
      "Content-Type": "text/csv; charset=utf-8",
      "Content-Disposition": `attachment; filename="tcpa-packet-contact-${id}-${day}.csv"`,
      "Cache-Control": "no-store",
    },
  });
}
