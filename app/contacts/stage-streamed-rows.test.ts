// Staging a spreadsheet as its rows stream in (decision 019) ends exactly where staging the same rows from a CSV does:
// the same counts, error lines and staged rows in the same order, across several 2,000-row chunks; and a stream that
// fails part-way leaves nothing behind.
import { utils, write } from "@e965/xlsx";
import { eq, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { contactImports } from "~/db/schema";
import { createTestUser, db } from "../../tests/factories";
import { CSV_PARSE_FAILED, type SheetRecord } from "./csv-import";
import { stageStreamedRows } from "./stage-contact-import.server";
import { NO_VALID_CONTACTS_FOUND, stageQuickSend } from "~/quick-send/stage-quick-send.server";

const HEADER = ["First Name", "Last Name", "Phone", "Email", "Company", "State", "Roof Size"];

/** 4,500 data rows: in-file duplicates by phone and by email, rows a rule rejects, blank rows, custom fields. */
function leads(): string[][] {
  const rows: string[][] = [HEADER];
  for (let i = 0; i < 4500; i++) {
    const phone = `(212) ${String(200 + Math.floor(i / 1000)).padStart(3, "0")}-${String(i % 1000).padStart(4, "0")}`;
    if (i % 450 === 7) rows.push([]); // a blank row: skipped, but it keeps its number
    if (i % 31 === 3) rows.push(["", "NoFirst", phone, "", "", "", ""]);
    else if (i % 89 === 5) rows.push([`Bad${i}`, "Email", phone, "not-an-email", "", "", ""]);
    else if (i % 61 === 11) rows.push([`Dup${i}`, "Phone", rows[rows.length - 1][2] || phone, "", "", "", ""]);
    else if (i % 53 === 13) rows.push([`Dup${i}`, "Email", phone, "same@example.com", "", "", ""]);
    else
      rows.push([
        `Name${i}`,
        i % 5 ? `Last${i % 40}` : "",
        phone,
        i % 3 ? `n${i}@example.com` : "",
        i % 4 ? "Sun Co" : "",
        ["AZ", "texas", "Ontario", ""][i % 4],
        i % 6 ? "" : `${i % 20} kW`,
      ]);
  }
  return rows;
}

const csvOf = (rows: string[][]) =>
  rows.map((r) => r.map((c) => (/[",\n]/.test(c) ? `"${c.replace(/"/g, '""')}"` : c)).join(",")).join("\n") + "\n";
function xlsxOf(rows: string[][]) {
  const book = utils.book_new();
  utils.book_append_sheet(book, utils.aoa_to_sheet(rows), "Leads");
  return new Uint8Array(
    write(book, { type: "array", bookType: "xlsx", bookSST: true, compression: true }) as ArrayBuffer,
  );
}

async function stagedOf(importId: number) {
  const imp = await db().select().from(contactImports).where(eq(contactImports.id, importId)).get();
  const rows = await db().all<{ row_number: number; data: string }>(
    sql`SELECT row_number, data FROM contact_import_rows WHERE import_id = ${importId} ORDER BY id`,
  );
  return { imp, rows };
}
const counts = (imp: Record<string, unknown> | undefined) => ({
  status: imp?.status,
  totalRows: imp?.totalRows,
  validRows: imp?.validRows,
  errorCount: imp?.errorCount,
  rejectedRows: imp?.rejectedRows,
  fileDuplicates: imp?.fileDuplicates,
  errors: imp?.errors,
  failureMessage: imp?.failureMessage,
});

describe("stageStreamedRows", () => {
  it("stages an .xlsx exactly as the same rows from a CSV: counts, the first 100 errors, rows and their numbers, in order", async () => {
    const u = await createTestUser();
    const rows = leads();
    const input = (file: File) => ({ file, message: "Hi #FIRST_NAME#", scheduledAt: null });
    const fromCsv = await stageQuickSend(
      db(),
      input(new File([csvOf(rows)], "leads.csv")),
      { userId: u.id },
      new Date(),
    );
    const fromXlsx = await stageQuickSend(
      db(),
      input(new File([xlsxOf(rows)], "leads.xlsx")),
      { userId: u.id },
      new Date(),
    );
    const a = await stagedOf(fromCsv.id);
    const b = await stagedOf(fromXlsx.id);
    expect(counts(b.imp)).toEqual(counts(a.imp));
    expect(b.imp?.validRows).toBeGreaterThan(4000); // three chunks
    expect(b.imp?.fileDuplicates).toBeGreaterThan(0);
    expect(b.imp?.errors).toHaveLength(100);
    expect(b.imp?.errorCount).toBeGreaterThan(100);
    expect(b.rows).toEqual(a.rows);
    expect(JSON.parse(b.rows[0].data)).toMatchObject({ firstName: "Name0", phone: "+12122000000" });
  });

  it("a stream that fails after two chunks removes the import and its rows, and says why", async () => {
    const u = await createTestUser();
    const before = await db().all(sql`SELECT id FROM contact_imports WHERE created_by = ${u.id}`);
    async function* failing(): AsyncGenerator<SheetRecord> {
      yield { row: 1, cells: ["First Name", "Phone"] };
      for (let i = 0; i < 4100; i++)
        yield {
          row: i + 2,
          cells: [`N${i}`, `(415) ${String(300 + Math.floor(i / 1000))}-${String(i % 1000).padStart(4, "0")}`],
        };
      throw new Error("the connection dropped");
    }
    await expect(
      stageStreamedRows(
        db(),
        { fileName: "x.xlsx", rows: failing(), requireLastName: false },
        { userId: u.id },
        new Date(),
      ),
    ).rejects.toThrow("the connection dropped");
    expect(await db().all(sql`SELECT id FROM contact_imports WHERE created_by = ${u.id}`)).toEqual(before);
    expect(
      await db().all(
        sql`SELECT r.id FROM contact_import_rows r LEFT JOIN contact_imports i ON i.id = r.import_id WHERE i.id IS NULL`,
      ),
    ).toEqual([]);
  });

  it("no usable header or no data row: the CSV path's message; no valid row: the caller's; nothing saved either way", async () => {
    const u = await createTestUser();
    const sheet = (rows: string[][]) =>
      (async function* () {
        for (const [i, cells] of rows.entries()) yield { row: i + 1, cells };
      })();
    const stage = (rows: string[][]) =>
      stageStreamedRows(
        db(),
        {
          fileName: "x.xlsx",
          rows: sheet(rows),
          requireLastName: false,
          field: "file",
          noValidRows: NO_VALID_CONTACTS_FOUND,
        },
        { userId: u.id },
        new Date(),
      );
    await expect(
      stage([
        ["Color", "Size"],
        ["red", "L"],
      ]),
    ).rejects.toMatchObject({ status: 400, message: CSV_PARSE_FAILED, field: "file" });
    await expect(stage([["First Name", "Phone"]])).rejects.toMatchObject({ status: 400, message: CSV_PARSE_FAILED });
    await expect(
      stage([
        ["First Name", "Phone"],
        ["", "2125550100"],
      ]),
    ).rejects.toMatchObject({ status: 400, message: NO_VALID_CONTACTS_FOUND });
    expect(await db().all(sql`SELECT id FROM contact_imports WHERE created_by = ${u.id}`)).toEqual([]);
  });
});
