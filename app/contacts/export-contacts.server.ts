import type { Db } from "~/db/client.server";
import { csvHeader, csvRow, txtLine, type ExportContact } from "./export";
import { listContacts } from "./list-contacts.server";
import type { ContactViewer } from "./contact-scope.server";

export const EXPORT_FORMATS = ["json", "csv", "txt"] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];
const EXPORT_PAGE = 1000;

const CONTENT_TYPES: Record<ExportFormat, string> = {
  csv: "text/csv; charset=utf-8",
  json: "application/json; charset=utf-8",
  txt: "text/plain; charset=utf-8",
};

function toExport(c: ExportContact): ExportContact {
  const { firstName, lastName, phone, email, company, address, city, state, zipCode } = c;
  return { firstName, lastName, phone, email, company, address, city, state, zipCode };
}

/**
 * Streams the (searched) contact list page by page with keyset paging, so 100k contacts never sit in
 * memory at once. Returns null when there is nothing to download. Only the contacts the viewer sees (decision 048).
 */
export async function exportContacts(db: Db, q: string | null, format: ExportFormat, viewer: ContactViewer) {
  const first = await listContacts(db, { q, limit: EXPORT_PAGE, viewer });
  if (first.contacts.length === 0) return null;
  const enc = new TextEncoder();
  let page = first;
  let index = 0;
  const stream = new ReadableStream<Uint8Array>({
    start(controller) {
      if (format === "csv") controller.enqueue(enc.encode(csvHeader()));
      if (format === "json") controller.enqueue(enc.encode("[\n"));
    },
    async pull(controller) {
      const parts = page.contacts.map((c) => {
        const row = toExport({ ...c, customFields: undefined });
        const out =
          format === "csv"
            ? csvRow(row)
            : format === "txt"
              ? txtLine(row) + "\n"
              : (index > 0 ? ",\n" : "") + "  " + JSON.stringify(row);
        index++;
        return out;
      });
      controller.enqueue(enc.encode(parts.join("")));
      if (page.nextCursor === null) {
        if (format === "json") controller.enqueue(enc.encode("\n]\n"));
        controller.close();
        return;
      }
      page = await listContacts(db, { q, after: page.nextCursor, limit: EXPORT_PAGE, viewer });
    },
  });
  return { stream, contentType: CONTENT_TYPES[format], fileName: `contacts.${format}` };
}
