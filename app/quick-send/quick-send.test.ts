// Quick Upload & Send (issue 11, SPEC §5): the .csv/.xlsx/.xls files committed in tests/fixtures, the staging
// rules and messages, and the path through the duplicate-aware import to one broadcast through the pipeline.
import { eq, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { broadcasts, contactImports, messages } from "~/db/schema";
import { uniquePhone, createTestContact } from "../../tests/contact-factory";
import { call, createTestUser, db, loginAs } from "../../tests/factories";
import { fixtureFile } from "../../tests/fixtures";
import { parseContactsCsv, readContactRows, type ImportRow } from "~/contacts/csv-import";
import { readContactsFile, SPREADSHEET_PARSE_FAILED } from "~/contacts/read-contacts-file.server";
import { MAX_UPLOAD_BYTES, MAX_XLS_BYTES, UPLOAD_TOO_LARGE, XLS_TOO_LARGE } from "~/contacts/upload-limits";
import { NO_CONTACTS, sendQuickUpload, STILL_SAVING } from "./send-quick-upload.server";
import { MESSAGE_REQUIRED, NO_VALID_CONTACTS_FOUND, stageQuickSend } from "./stage-quick-send.server";
import { startContactImport } from "~/contacts/start-contact-import.server";
import { viewQuickSend } from "./view-quick-send.server";
import { appHooks } from "../../tests/messaging-harness";

const queue = { send: async () => {}, sendBatch: async () => {} } as any;
const noEnqueue = async () => {};
const csvFile = (lines: string[]) => new File([lines.join("\n")], "leads.csv", { type: "text/csv" });
/** A file read the way stageQuickSend reads it: a CSV parsed whole, a spreadsheet's rows streamed. */
async function parseFile(file: File) {
  const contents = await readContactsFile(file);
  if (contents.kind === "csv") return parseContactsCsv(contents.text, { requireLastName: false });
  const rows: ImportRow[] = [];
  const r = await readContactRows(contents.rows, { requireLastName: false }, (row) => void rows.push(row));
  return { rows, errors: r.errors, totalRows: r.totalRows, fatal: r.fatal };
}
const importsOf = async (userId: number) =>
  (await db().select({ id: contactImports.id }).from(contactImports).where(eq(contactImports.createdBy, userId)))
    .length;

describe("reading a quick-upload file", () => {
  it.each(["quick-send.csv", "quick-send.xlsx", "quick-send.xls"])(
    "%s: a phone and a first name per row; the same rows from every format",
    async (name) => {
      const parsed = await parseFile(fixtureFile(name));
      expect(parsed.fatal).toBeNull();
      expect(parsed.rows.map((r) => [r.rowNumber, r.firstName, r.lastName, r.phone, r.company, r.address])).toEqual([
        [2, "Ana", "Lee", "+12128675301", "Sun Co", "1 Elm St"],
        [3, "Bo", "", "+13108675302", null, "2 Oak Ave"],
        [4, "Cy", "Diaz", "+14158675303", "Bright Roofs", null],
      ]);
      expect(parsed.errors).toEqual(["Row 5: First name is required", "Row 6: Phone number is required"]);
    },
  );

  it("a malformed workbook is a clean validation error, and so is another file type", async () => {
    await expect(parseFile(fixtureFile("malformed.xlsx"))).rejects.toMatchObject({
      code: "validation",
      status: 400,
      message: SPREADSHEET_PARSE_FAILED,
    });
    const brokenXls = new File(
      [new Uint8Array([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1, ...new Array(600).fill(7)])],
      "broken.xls",
    );
    await expect(parseFile(brokenXls)).rejects.toMatchObject({
      code: "validation",
      status: 400,
      message: SPREADSHEET_PARSE_FAILED,
    });
    await expect(readContactsFile(new File(["x"], "leads.pdf"))).rejects.toMatchObject({
      status: 400,
      message: "Please upload a .csv, .xlsx or .xls file",
    });
  });

  it("size caps before anything is read: 10 MB for .csv and .xlsx (streamed), 1 MB for .xls (SheetJS holds it whole)", async () => {
    const big = (bytes: number, name: string) => new File([new Uint8Array(bytes)], name);
    await expect(readContactsFile(big(MAX_XLS_BYTES + 1, "old.xls"))).rejects.toMatchObject({
      code: "payload_too_large",
      status: 413,
      message: XLS_TOO_LARGE,
    });
    await expect(readContactsFile(big(MAX_UPLOAD_BYTES + 1, "big.xlsx"))).rejects.toMatchObject({
      status: 413,
      message: UPLOAD_TOO_LARGE,
    });
    // An .xlsx under the limit is not read up front: its rows stream when staged.
    await expect(readContactsFile(big(MAX_XLS_BYTES + 1, "fine.xlsx"))).resolves.toMatchObject({ kind: "sheet" });
    expect(XLS_TOO_LARGE).toBe(
      ".xls files can be at most 1 MB. Please save the sheet as .xlsx or CSV (up to 10 MB), or split it.",
    );
  });

  it("the Upload CSV rule still wants a last name", () => {
    const parsed = parseContactsCsv("firstName,lastName,phone\nBo,,3108675302\n");
    expect(parsed.rows).toEqual([]);
    expect(parsed.errors).toEqual(["Row 2: Last name is required"]);
  });
});

describe("stageQuickSend", () => {
  it("refuses a blank message, a file without valid rows and a malformed workbook, staging nothing", async () => {
    const u = await createTestUser();
    const now = new Date();
    const refused = (file: File, message: string, why: string) =>
      expect(stageQuickSend(db(), { file, message, scheduledAt: null }, { userId: u.id }, now)).rejects.toMatchObject({
        status: 400,
        message: why,
      });
    await refused(fixtureFile("quick-send.xlsx"), "  ", MESSAGE_REQUIRED);
    await refused(csvFile(["First Name,Phone", ",2128675301"]), "Hi", NO_VALID_CONTACTS_FOUND);
    await refused(fixtureFile("malformed.xlsx"), "Hi", SPREADSHEET_PARSE_FAILED);
    expect(await importsOf(u.id)).toBe(0);
  });
});

describe("Quick Upload & Send end to end (domain)", () => {
  it("previews the first row, saves the contacts without touching existing ones, checks, and sends one broadcast once", async () => {
    const u = await createTestUser();
    const now = new Date();
    const [p1, p2, p3] = [uniquePhone(), uniquePhone(), uniquePhone()];
    // Already a contact, with a company the file does not have: the record is kept (skip) and still texted.
    const existing = await createTestContact(u.id, {
      phone: p3,
      firstName: "Kim",
      lastName: "Old",
      company: "Kept Co",
    });
    const file = csvFile([
      "First Name,Last Name,Phone,Company",
      `Ana,Lee,${p1},Sun Co`,
      `Bo,,${p2},`,
      `Kimberly,New,${p3},New Co`,
    ]);
    const message = "Hi #FIRST_NAME# from #COMPANY#! Reply STOP to opt out";
    const staged = await stageQuickSend(db(), { file, message, scheduledAt: null }, { userId: u.id }, now);
    expect(staged).toMatchObject({ purpose: "quick_send", status: "staged", validRows: 3, message });

    let view = await viewQuickSend(db(), {
      id: staged.id,
      userId: u.id,
      now,
      enqueue: noEnqueue,
      variables: appHooks.variables,
    });
    expect(view.quick.preview).toBe("Hi Ana from Sun Co! Reply STOP to opt out");
    expect(view.check).toBeNull();
    await expect(
      sendQuickUpload({ db: db(), queue, now, hooks: appHooks }, staged.id, { userId: u.id, ipAddress: null }),
    ).rejects.toMatchObject({ status: 409, message: STILL_SAVING });

    await startContactImport(db(), { id: staged.id, userId: u.id, mode: "skip", clock: () => now, enqueue: noEnqueue });
    view = await viewQuickSend(db(), {
      id: staged.id,
      userId: u.id,
      now,
      enqueue: noEnqueue,
      variables: appHooks.variables,
    });
    expect(view.import.status).toBe("completed");
    expect(view.summary).toMatch(/Created 2, updated 0, skipped 1 duplicates/);
    expect(view.check).toMatchObject({ selected: 3, recipients: 3, skipped: { total: 0 } });
    const kept = await db().get<{ company: string }>(sql`SELECT company FROM contacts WHERE id = ${existing.id}`);
    expect(kept?.company).toBe("Kept Co");

    const { broadcastId } = await sendQuickUpload({ db: db(), queue, now, hooks: appHooks }, staged.id, {
      userId: u.id,
      ipAddress: null,
    });
    const sent = await db()
      .select({ phone: messages.phone, content: messages.content, kind: messages.kind })
      .from(messages)
      .where(eq(messages.broadcastId, broadcastId));
    expect(sent.map((m) => m.phone).sort()).toEqual([p1, p2, p3].sort());
    expect(new Set(sent.map((m) => m.content))).toEqual(new Set([message])); // filled per contact at send time
    // A second confirm (a double click, a resubmitted form) sends nothing more.
    expect(
      await sendQuickUpload({ db: db(), queue, now, hooks: appHooks }, staged.id, { userId: u.id, ipAddress: null }),
    ).toEqual({ broadcastId });
    expect((await db().select().from(broadcasts).where(eq(broadcasts.id, broadcastId))).length).toBe(1);
    expect(
      (await db().select({ id: messages.id }).from(messages).where(eq(messages.broadcastId, broadcastId))).length,
    ).toBe(3);
    const rows = await db().get<{ n: number }>(
      sql`SELECT count(*) AS n FROM contact_import_rows WHERE import_id = ${staged.id}`,
    );
    expect(rows?.n).toBe(0);
  });

  it("says 'No contacts' when none of the saved contacts is left to text", async () => {
    const u = await createTestUser();
    const now = new Date();
    const phone = uniquePhone();
    const staged = await stageQuickSend(
      db(),
      { file: csvFile(["First Name,Phone", `Ana,${phone}`]), message: "Hi #FIRST_NAME#", scheduledAt: null },
      { userId: u.id },
      now,
    );
    await startContactImport(db(), { id: staged.id, userId: u.id, mode: "skip", clock: () => now, enqueue: noEnqueue });
    await db().run(sql`DELETE FROM contacts WHERE phone = ${phone}`);
    await expect(
      sendQuickUpload({ db: db(), queue, now, hooks: appHooks }, staged.id, { userId: u.id, ipAddress: null }),
    ).rejects.toMatchObject({ status: 400, message: NO_CONTACTS });
  });

  it("someone else's quick send is a 404", async () => {
    const [a, b] = [await createTestUser(), await createTestUser()];
    const staged = await stageQuickSend(
      db(),
      { file: csvFile(["First Name,Phone", `Ana,${uniquePhone()}`]), message: "Hi", scheduledAt: null },
      { userId: a.id },
      new Date(),
    );
    await expect(
      viewQuickSend(db(), {
        id: staged.id,
        userId: b.id,
        now: new Date(),
        enqueue: noEnqueue,
        variables: appHooks.variables,
      }),
    ).rejects.toMatchObject({ status: 404 });
  });
});

describe("the quick-send screens over HTTP", () => {
  it("uploads an .xlsx with a message (multipart, no JS needed) and lands on its preview", async () => {
    const u = await createTestUser();
    const cookie = await loginAs(u);
    const form = new FormData();
    form.set("file", fixtureFile("quick-send.xlsx"));
    form.set("message", "Hi #FIRST_NAME#");
    form.set("schedule", "now");
    const res = await call("/contacts/quick-send", { method: "POST", body: form, cookie, redirect: "manual" });
    expect(res.status).toBe(302);
    const location = res.headers.get("Location") ?? "";
    expect(location).toMatch(/^\/contacts\/quick-send\/\d+$/);
    const page = await call(location, { cookie });
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain("Hi Ana");
    expect(html).toContain("Save 3 contacts and review");

    const bad = new FormData();
    bad.set("file", fixtureFile("malformed.xlsx"));
    bad.set("message", "Hi");
    const refused = await call("/contacts/quick-send", { method: "POST", body: bad, cookie, redirect: "manual" });
    expect(refused.status).toBe(400);
    expect(await refused.text()).toContain(SPREADSHEET_PARSE_FAILED);
  });
});
