import { createExecutionContext, createMessageBatch, env, getQueueResult } from "cloudflare:test";
import { and, eq, inArray, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { activityLog, contactImportRows, contacts } from "~/db/schema";
import worker from "../../workers/app";
import { createDb } from "~/db/client.server";
import { measuringD1 } from "../../tests/bound-values";
import { createTestContact, seedContacts, uniquePhone, uniqueTag } from "../../tests/contact-factory";
import { CUSTOM_FIELD_VARIABLES } from "./custom-fields";
import { createTestUser, db, SEES_ALL } from "../../tests/factories";
import { viewerOf } from "./contact-scope.server";
import { bulkItems, bulkUpsertContacts, TOO_MANY_CONTACTS } from "./bulk-contacts.server";
import { AppError } from "~/lib/app-error";
import { importErrorPreview, importResultSummary } from "./contact-import-summary";
import { getContactImport, previewRows } from "./get-contact-import.server";
import { importNextChunk } from "./import-next-chunk.server";
import { resumeIfStalled } from "./resume-stalled-import.server";
import { stageContactImport } from "./stage-contact-import.server";
import { confirmContactImport, startContactImport } from "./start-contact-import.server";
import { countContacts, listContacts } from "./list-contacts.server";
import { deleteContact } from "./delete-contact.server";
import { getContact } from "./get-contact.server";
import { updateContact } from "./update-contact.server";
import { PHONE_REASONS } from "./phone";

const now = () => new Date();
const digits = (p: string) => p.replace(/\D/g, "");
/** "(310) 555-2368" style for a +1 number. */
const pretty = (p: string) => `(${p.slice(2, 5)}) ${p.slice(5, 8)}-${p.slice(8)}`;

async function contactsByPhone(phones: string[]) {
  return db().select().from(contacts).where(inArray(contacts.phone, phones));
}

function csv(lines: string[]) {
  return ["firstName,lastName,phone,email,company", ...lines].join("\n");
}

async function stage(userId: number, text: string, name = "contacts.csv") {
  return stageContactImport(db(), { name, text }, { userId }, now());
}

async function runToEnd(importId: number) {
  for (let i = 0; i < 1000; i++) if ((await importNextChunk(db(), importId, now())).done) return;
  throw new Error("import did not finish");
}

/** The user's import_contacts entries in the activity log. */
const importsLogged = (userId: number) =>
  db()
    .select()
    .from(activityLog)
    .where(and(eq(activityLog.userId, userId), eq(activityLog.action, "import_contacts")));

describe("phone normalisation and sendability on create and edit", () => {
  it("normalises a formatted 10-digit number to +1… and keeps an impossible one, flagged with the reason", async () => {
    const u = await createTestUser();
    const phone = uniquePhone();
    const c = await createTestContact(u.id, { phone: pretty(phone) });
    expect(c.phone).toBe(phone);
    expect(c.sendable).toBe(true);
    expect(c.unsendableReason).toBeNull();

    const short = `${Math.floor(Math.random() * 1e6)}`;
    const bad = await createTestContact(u.id, { phone: ` ${short} ` });
    expect(bad.phone).toBe(short);
    expect(bad.sendable).toBe(false);
    expect(bad.unsendableReason).toBe(PHONE_REASONS.notUs);

    const p2 = uniquePhone();
    const edited = await updateContact(
      db(),
      c.id,
      { firstName: "A", lastName: "B", phone: `1-${p2.slice(2, 5)}-${p2.slice(5, 8)}-${p2.slice(8)}` },
      SEES_ALL,
      now(),
    );
    expect(edited.phone).toBe(p2);
    const toll = await updateContact(
      db(),
      bad.id,
      { firstName: "A", lastName: "B", phone: `800${String(Math.floor(Math.random() * 1e7)).padStart(7, "2")}` },
      SEES_ALL,
      now(),
    );
    expect(toll.sendable).toBe(false);
    expect(toll.unsendableReason).toBe(PHONE_REASONS.tollFree);
  });

  it("refuses to create or edit into a phone that already exists (409, names the contact)", async () => {
    const u = await createTestUser();
    const a = await createTestContact(u.id, { firstName: "Ann", lastName: "Existing" });
    const err = await createTestContact(u.id, { phone: digits(a.phone).slice(1) }).catch((e) => e);
    expect(err).toBeInstanceOf(AppError);
    expect(err.code).toBe("conflict");
    expect(err.status).toBe(409);
    expect(err.message).toBe("A contact with this phone number already exists (Ann Existing)");
    const b = await createTestContact(u.id);
    const err2 = await updateContact(
      db(),
      b.id,
      { firstName: "B", lastName: "B", phone: a.phone },
      SEES_ALL,
      now(),
    ).catch((e) => e);
    expect(err2.status).toBe(409);
    expect((await getContact(db(), b.id, SEES_ALL)).phone).toBe(b.phone);
  });
});

describe("search and keyset paging", () => {
  it("finds by name, phone digits with punctuation, email and company, with 1–2 character terms too", async () => {
    const u = await createTestUser();
    const surname = uniqueTag("Qz");
    const company = uniqueTag("Corp");
    const a = await createTestContact(u.id, {
      firstName: "Marguerite",
      lastName: surname,
      email: `${surname}@solar-example.org`,
      company,
    });
    const b = await createTestContact(u.id, { firstName: "Other", lastName: uniqueTag("Nn") });
    const ids = async (q: string) => (await listContacts(db(), { q, limit: 200 })).contacts.map((c) => c.id);

    expect(await ids(surname)).toEqual([a.id]);
    expect(await ids(surname.toUpperCase())).toEqual([a.id]);
    expect(await ids(`Marguerite ${surname}`)).toEqual([a.id]);
    expect(await ids(company.slice(2))).toEqual([a.id]); // a substring from the middle
    expect(await ids(`${surname}@solar`)).toEqual([a.id]);
    expect(await ids(pretty(a.phone))).toContain(a.id);
    expect(await ids(`${a.phone.slice(5, 8)}-${a.phone.slice(8)}`)).toContain(a.id);
    expect(await ids(pretty(a.phone))).not.toContain(b.id);

    // Short terms scan by index order: the newest match (b, then a) is on the first page.
    const two = b.lastName.slice(0, 2);
    expect((await listContacts(db(), { q: two, limit: 50 })).contacts.map((c) => c.id)).toContain(b.id);
    const one = (await listContacts(db(), { q: "%", limit: 50 })).contacts; // LIKE wildcards are literal
    expect(one.every((c) => [c.firstName, c.lastName, c.phone, c.email, c.company].some((v) => v?.includes("%")))).toBe(
      true,
    );
    expect(await ids(uniqueTag("nomatch"))).toEqual([]);
  });

  it("pages forwards and backwards with no duplicates or gaps, with and without a search", async () => {
    const company = uniqueTag("Page");
    const seeded = await seedContacts(25, () => ({ company }));
    const seededIds = seeded.map((c) => c.id).sort((x, y) => y - x);

    // Searched (FTS) list.
    const pages: number[][] = [];
    let page = await listContacts(db(), { q: company, limit: 10 });
    expect(page.prevCursor).toBeNull();
    pages.push(page.contacts.map((c) => c.id));
    while (page.nextCursor !== null) {
      page = await listContacts(db(), { q: company, after: page.nextCursor, limit: 10 });
      pages.push(page.contacts.map((c) => c.id));
    }
    expect(pages.map((p) => p.length)).toEqual([10, 10, 5]);
    expect(pages.flat()).toEqual(seededIds);
    // Back from the last page.
    const back: number[][] = [pages[2]];
    while (page.prevCursor !== null) {
      page = await listContacts(db(), { q: company, before: page.prevCursor, limit: 10 });
      back.unshift(page.contacts.map((c) => c.id));
    }
    expect(back).toEqual(pages);

    // Unsearched list, walked from just above the newest seeded contact.
    const walked: number[] = [];
    let cursor: number | null = seededIds[0] + 1;
    while (cursor !== null && walked.length < 200 && !walked.includes(seededIds.at(-1)!)) {
      const p = await listContacts(db(), { after: cursor, limit: 7 });
      walked.push(...p.contacts.map((c) => c.id));
      cursor = p.nextCursor;
    }
    expect(new Set(walked).size).toBe(walked.length);
    expect([...walked].sort((x, y) => y - x)).toEqual(walked);
    expect(seededIds.every((id) => walked.includes(id))).toBe(true);
  });
});

describe("bulk upsert", () => {
  it("accepts a bare array or { contacts }, and refuses empty, non-array and oversize bodies", () => {
    expect(bulkItems([{ a: 1 }])).toHaveLength(1);
    expect(bulkItems({ contacts: [{ a: 1 }, { b: 2 }] })).toHaveLength(2);
    expect(() => bulkItems({ nope: [] })).toThrow(AppError);
    expect(() => bulkItems([])).toThrow("No contacts to upload");
    const big = (() => {
      try {
        bulkItems(new Array(10_001).fill({}));
      } catch (e) {
        return e as AppError;
      }
    })();
    expect(big?.code).toBe("payload_too_large");
    expect(big?.status).toBe(413);
    expect(big?.message).toBe(TOO_MANY_CONTACTS);
  });

  it("normalises, rejects invalid items as 'Contact N: …', and de-duplicates in the request and against the DB (skip)", async () => {
    const u = await createTestUser();
    const existing = await createTestContact(u.id, { firstName: "Old", company: "Kept" });
    const p1 = uniquePhone();
    const p2 = uniquePhone();
    const email = `${uniqueTag("e")}@example.com`;
    const items = [
      { firstName: "New", lastName: "One", phone: pretty(p1), email },
      { firstName: "", lastName: "Two", phone: uniquePhone() },
      { firstName: "Dup", lastName: "Phone", phone: digits(p1) }, // repeat of item 1 by phone
      { firstName: "Dup", lastName: "Email", phone: p2, email: email.toUpperCase() }, // repeat of item 1 by email
      { firstName: "Same", lastName: "AsDb", phone: existing.phone, company: "Changed" },
      { firstName: "Bad", lastName: "Email", phone: uniquePhone(), email: "not-an-email" },
    ];
    const r = await bulkUpsertContacts(db(), items, { mode: "skip", viewer: viewerOf(u), ipAddress: null, now: now() });
    expect(r).toEqual({
      created: 1,
      updated: 0,
      duplicates: 3,
      rejected: 2,
      errors: [
        "Contact 2: Please fill in all required fields (First Name, Last Name, Phone).",
        "Contact 6: email: Please enter a valid email address",
      ],
    });
    expect(await contactsByPhone([p1, p2])).toMatchObject([{ firstName: "New", phone: p1, email }]);
    expect((await getContact(db(), existing.id, SEES_ALL)).company).toBe("Kept");
    const log = await db()
      .select()
      .from(activityLog)
      .where(and(eq(activityLog.userId, u.id), eq(activityLog.action, "bulk_create_contacts")));
    expect(log).toHaveLength(1);
    expect(log[0].details).toMatchObject({ created: 1, duplicates: 3, rejected: 2, received: 6 });
  });

  it("update mode merges into the contact with the same phone, keeps fields the row leaves empty, and never hands a phone to an email match", async () => {
    const u = await createTestUser();
    const email = `${uniqueTag("m")}@example.com`;
    const byPhone = await createTestContact(u.id, { firstName: "Old", company: "OldCo", city: "Austin" });
    const byEmail = await createTestContact(u.id, { firstName: "Mail", email });
    const newPhone = uniquePhone();
    const r = await bulkUpsertContacts(
      db(),
      [
        { firstName: "New", lastName: "Name", phone: byPhone.phone, company: "NewCo" },
        { firstName: "Mailer", lastName: "X", phone: newPhone, email },
        { firstName: "Again", lastName: "Y", phone: byPhone.phone }, // in-request repeat
      ],
      { mode: "update", viewer: viewerOf(u), ipAddress: null, now: now() },
    );
    expect(r).toMatchObject({ created: 0, updated: 1, duplicates: 2, rejected: 0 });
    expect(await getContact(db(), byPhone.id, SEES_ALL)).toMatchObject({
      firstName: "New",
      lastName: "Name",
      company: "NewCo",
      city: "Austin",
    });
    // Matched only by a shared email (a household?): a duplicate, left as it was — its phone and opt-out state stay its own.
    expect(await getContact(db(), byEmail.id, SEES_ALL)).toMatchObject({
      firstName: "Mail",
      phone: byEmail.phone,
      email,
    });
  });

  it("a standard user's update never merges into another rep's contact: a duplicate, left as it was (decision 048)", async () => {
    const rep = await createTestUser({ role: "user" });
    const other = await createTestUser({ role: "user" });
    const theirs = await createTestContact(other.id, { firstName: "Theirs", company: "KeepCo" });
    const mine = await createTestContact(rep.id, { firstName: "Mine" });
    await db().update(contacts).set({ ownerUserId: other.id }).where(eq(contacts.id, theirs.id));
    await db().update(contacts).set({ ownerUserId: rep.id }).where(eq(contacts.id, mine.id));
    const r = await bulkUpsertContacts(
      db(),
      [
        { firstName: "Overwritten", lastName: "?", phone: theirs.phone, company: "Rival" },
        { firstName: "Updated", lastName: "!", phone: mine.phone },
      ],
      { mode: "update", viewer: viewerOf(rep), ipAddress: null, now: now() },
    );
    expect(r).toMatchObject({ created: 0, updated: 1, duplicates: 1 });
    expect(await getContact(db(), theirs.id, SEES_ALL)).toMatchObject({ firstName: "Theirs", company: "KeepCo" });
    expect((await getContact(db(), mine.id, SEES_ALL)).firstName).toBe("Updated");
    // A superuser's update still merges into anyone's.
    const admin = await createTestUser({ role: "superuser" });
    await bulkUpsertContacts(db(), [{ firstName: "Fixed", lastName: "Up", phone: theirs.phone }], {
      mode: "update",
      viewer: viewerOf(admin),
      ipAddress: null,
      now: now(),
    });
    expect((await getContact(db(), theirs.id, SEES_ALL)).firstName).toBe("Fixed");
  });
});

describe("contact total", () => {
  it("the trigger-kept total matches COUNT(*) through inserts, imports and deletes", async () => {
    const u = await createTestUser();
    const count = async () => (await db().get<{ n: number }>(sql`SELECT count(*) AS n FROM contacts`))!.n;
    const c = await createTestContact(u.id);
    await seedContacts(25);
    expect(await countContacts(db())).toBe(await count());
    await deleteContact(db(), c.id, SEES_ALL);
    expect(await countContacts(db())).toBe(await count());
  });
});

describe("opt-out state and consent", () => {
  it("a contact created, imported or edited to a number that already texted STOP shows as opted out; consent source is kept", async () => {
    const u = await createTestUser();
    const stopped = uniquePhone();
    const { suppress } = await import("~/messaging/compliance.server");
    await suppress(db(), { channel: "sms", address: stopped, reason: "STOP" }, now());
    const created = await createTestContact(u.id, { phone: stopped });
    expect(created).toMatchObject({ optedOutSource: "STOP", consentSource: "manual" });
    expect(created.optedOutAt).toBeInstanceOf(Date);
    const other = uniquePhone();
    await suppress(db(), { channel: "sms", address: other, reason: "STOP" }, now());
    await bulkUpsertContacts(db(), [{ firstName: "B", lastName: "K", phone: other }], {
      mode: "skip",
      viewer: viewerOf(u),
      ipAddress: null,
      now: now(),
    });
    const bulk = await db().get<{ opted_out_source: string; consent_source: string }>(
      sql`SELECT opted_out_source, consent_source FROM contacts WHERE phone = ${other}`,
    );
    expect(bulk).toEqual({ opted_out_source: "STOP", consent_source: "api:bulk" });
  });

  it("deleting a contact skips its messages that have not gone yet", async () => {
    const u = await createTestUser();
    const c = await createTestContact(u.id);
    const t = Date.now();
    await db()
      .run(sql`INSERT INTO messages (channel, direction, kind, status, contact_id, phone, content, idempotency_key, is_marketing, is_test, attempts, scheduled_at, created_at, updated_at)
      VALUES ('sms', 'outbound', 'broadcast', 'pending', ${c.id}, ${c.phone}, 'later', ${"del:" + c.id}, 1, 0, 0, ${t + 3600_000}, ${t}, ${t})`);
    await deleteContact(db(), c.id, SEES_ALL);
    expect(
      await db().get(sql`SELECT status, error_message FROM messages WHERE idempotency_key = ${"del:" + c.id}`),
    ).toEqual({ status: "skipped", error_message: "Contact deleted" });
  });
});

describe("staged CSV import", () => {
  it("stages, previews, imports with in-file and DB duplicates and rejected rows, then deletes the staged rows", async () => {
    const u = await createTestUser();
    const existing = await createTestContact(u.id, { firstName: "Existing", company: "Before" });
    const p = Array.from({ length: 13 }, uniquePhone);
    const shortPhone = String(10000 + Math.floor(Math.random() * 89999));
    const lines = [
      ...p.slice(0, 12).map((ph, i) => `Ann${i},Lee,${pretty(ph)},,Acme`), // rows 2–13
      `Bob,,${p[12]},,`, // row 14: no last name
      `,NoFirst,,,`, // row 15: no first name, no phone
      `Dup,InFile,${digits(p[0])},,`, // row 16: repeat of row 2
      `Dup,InDb,${existing.phone},,After`, // row 17: already in the DB
      `Short,Number,${shortPhone},,`, // row 18: kept but not sendable
    ];
    const imp = await stage(u.id, csv(lines));
    expect(imp).toMatchObject({
      status: "staged",
      totalRows: 17,
      validRows: 14,
      rejectedRows: 2,
      fileDuplicates: 1,
      errorCount: 3,
    });
    expect(importErrorPreview(imp)).toEqual([
      "Row 14: Last name is required",
      "Row 15: First name is required",
      "Row 15: Phone number is required",
    ]);
    const preview = await previewRows(db(), imp.id);
    expect(preview).toHaveLength(10);
    expect(preview[0]).toMatchObject({ rowNumber: 2, firstName: "Ann0", phone: p[0], company: "Acme" });
    // Staging creates no contacts.
    expect(await contactsByPhone(p)).toHaveLength(0);

    await confirmContactImport(db(), imp.id, u.id, "skip", now());
    let chunks = 0;
    while (!(await importNextChunk(db(), imp.id, now(), 5)).done) chunks++;
    expect(chunks).toBeGreaterThanOrEqual(2);
    const done = await getContactImport(db(), imp.id, u.id);
    expect(done).toMatchObject({
      status: "completed",
      processedRows: 14,
      createdCount: 13,
      updatedCount: 0,
      duplicateCount: 1,
    });
    expect(importResultSummary(done)).toBe("Created 13, updated 0, skipped 2 duplicates, rejected 2 rows");
    expect(await contactsByPhone(p.slice(0, 12))).toHaveLength(12);
    expect((await getContact(db(), existing.id, SEES_ALL)).company).toBe("Before");
    const [short] = await contactsByPhone([shortPhone]);
    expect(short).toMatchObject({ sendable: false, unsendableReason: PHONE_REASONS.notUs });
    expect(await db().select().from(contactImportRows).where(eq(contactImportRows.importId, imp.id))).toHaveLength(0);
    expect(await importsLogged(u.id)).toHaveLength(1);
  });

  it("update mode merges into the existing contact", async () => {
    const u = await createTestUser();
    const existing = await createTestContact(u.id, { firstName: "Existing", company: "Before", city: "Reno" });
    const imp = await stage(u.id, csv([`Renamed,Person,${existing.phone},,After`]));
    const after = await startContactImport(db(), {
      id: imp.id,
      userId: u.id,
      mode: "update",
      clock: now,
      enqueue: async () => {},
    });
    expect(after).toMatchObject({ status: "completed", createdCount: 0, updatedCount: 1, duplicateCount: 0 });
    expect(await getContact(db(), existing.id, SEES_ALL)).toMatchObject({
      firstName: "Renamed",
      company: "After",
      city: "Reno",
    });
  });

  it("imports the home's bill, use and utility (decision 074); an update fills them, an empty cell keeps them", async () => {
    const u = await createTestUser();
    const existing = await createTestContact(u.id, { firstName: "Has" });
    await db().update(contacts).set({ monthlyKwh: 700, utilityName: "SDG&E" }).where(eq(contacts.id, existing.id));
    const fresh = uniquePhone();
    const file = [
      "First Name,Last Name,Phone,Avg Monthly Bill,Monthly kWh,Utility Company",
      `New,Lead,${fresh},"$1,182.50",950 kWh,PG&E`,
      `Has,Usage,${existing.phone},$210,,`,
      `Bad,Bill,${uniquePhone()},lots,,`,
    ].join("\n");
    const imp = await stage(u.id, file);
    expect(imp.errors).toEqual([expect.stringContaining("Row 4: Monthly bill: a dollar amount")]);
    await startContactImport(db(), { id: imp.id, userId: u.id, mode: "update", clock: now, enqueue: async () => {} });
    const [created] = await contactsByPhone([fresh]);
    expect(created).toMatchObject({ monthlyBillCents: 118250, monthlyKwh: 950, utilityName: "PG&E" });
    expect(await db().select().from(contacts).where(eq(contacts.id, existing.id)).get()).toMatchObject({
      monthlyBillCents: 21000,
      monthlyKwh: 700,
      utilityName: "SDG&E",
    });
  });

  it("never inserts twice when a chunk is redelivered or two runs race", async () => {
    const u = await createTestUser();
    const phones = Array.from({ length: 30 }, uniquePhone);
    const imp = await stage(u.id, csv(phones.map((ph, i) => `R${i},Race,${ph},,`)));
    await confirmContactImport(db(), imp.id, u.id, "skip", now());
    // Two racing workers on every chunk.
    for (let i = 0; i < 50; i++) {
      const [a, b] = await Promise.all([
        importNextChunk(db(), imp.id, now(), 7),
        importNextChunk(db(), imp.id, now(), 7),
      ]);
      if (a.done && b.done) break;
    }
    const done = await getContactImport(db(), imp.id, u.id);
    expect(done).toMatchObject({ status: "completed", processedRows: 30, createdCount: 30, duplicateCount: 0 });
    expect(await contactsByPhone(phones)).toHaveLength(30);
    // A late redelivery of a finished import does nothing.
    expect(await importNextChunk(db(), imp.id, now())).toEqual({ done: true });
    expect(await contactsByPhone(phones)).toHaveLength(30);
    expect(await importsLogged(u.id)).toHaveLength(1);
  });

  it("a late redelivery working from a stale read writes nothing", async () => {
    const u = await createTestUser();
    const existing = await createTestContact(u.id, { firstName: "Before" });
    const phones = Array.from({ length: 5 }, uniquePhone);
    const imp = await stage(
      u.id,
      csv([`Changed,Person,${existing.phone},,`, ...phones.map((ph, i) => `S${i},Stale,${ph},,`)]),
    );
    await confirmContactImport(db(), imp.id, u.id, "update", now());
    const stale = await getContactImport(db(), imp.id, u.id);
    expect(await importNextChunk(db(), imp.id, now(), 3)).toEqual({ done: false });
    await db().update(contacts).set({ firstName: "EditedSince" }).where(eq(contacts.id, existing.id));
    // The same chunk again, as a worker holding the pre-chunk state would run it.
    await importNextChunk(db(), imp.id, now(), 3, stale);
    expect((await getContact(db(), existing.id, SEES_ALL)).firstName).toBe("EditedSince");
    expect(await getContactImport(db(), imp.id, u.id)).toMatchObject({
      processedRows: 3,
      createdCount: 2,
      updatedCount: 1,
    });
    await runToEnd(imp.id);
    expect(await getContactImport(db(), imp.id, u.id)).toMatchObject({
      status: "completed",
      processedRows: 6,
      createdCount: 5,
      updatedCount: 1,
    });
    expect(await contactsByPhone(phones)).toHaveLength(5);
  });

  it("refuses a non-.csv name, an unparseable file and confirming a file without valid rows", async () => {
    const u = await createTestUser();
    await expect(stage(u.id, csv(["A,B,5551234567,,"]), "contacts.xlsx")).rejects.toThrow("Please upload a .csv file");
    await expect(stage(u.id, "")).rejects.toThrow("Failed to parse CSV file. Please check the format.");
    await expect(stage(u.id, 'firstName,lastName,phone\n"Ann,Lee,5551234567\n')).rejects.toThrow(
      "Failed to parse CSV file. Please check the format.",
    );
    const none = await stage(u.id, csv([",,,,", "Ann,,,,"]));
    expect(none.validRows).toBe(0);
    await expect(confirmContactImport(db(), none.id, u.id, "skip", now())).rejects.toThrow("No valid contacts");
  });

  it("re-enqueues an import that has stopped making progress, once per stall window", async () => {
    const u = await createTestUser();
    const imp = await stage(u.id, csv([`A,Stall,${uniquePhone()},,`]));
    await confirmContactImport(db(), imp.id, u.id, "skip", now());
    const fresh = await getContactImport(db(), imp.id, u.id);
    const enqueued: number[] = [];
    const enqueue = async (id: number) => void enqueued.push(id);
    expect(await resumeIfStalled(db(), fresh, now(), enqueue)).toBe(false);
    const later = new Date(fresh.updatedAt.getTime() + 2 * 60_000);
    expect(await resumeIfStalled(db(), fresh, later, enqueue)).toBe(true);
    expect(await resumeIfStalled(db(), fresh, later, enqueue)).toBe(false); // a second poll with the old read
    expect(enqueued).toEqual([imp.id]);
  });

  it("keeps imports private to their creator", async () => {
    const owner = await createTestUser();
    const other = await createTestUser();
    const imp = await stage(owner.id, csv([`A,B,${uniquePhone()},,`]));
    await expect(getContactImport(db(), imp.id, other.id)).rejects.toMatchObject({ status: 404 });
    await expect(confirmContactImport(db(), imp.id, other.id, "skip", now())).rejects.toMatchObject({ status: 404 });
  });

  it("a file of long rows (every field at its maximum, 3 bytes a character) stages, imports and updates: no bound value near D1's 2 MB", async () => {
    const u = await createTestUser();
    const measured = measuringD1(env.DB);
    const mdb = createDb(measured.d1);
    const custom = CUSTOM_FIELD_VARIABLES.filter((n) => !n.startsWith("appointment"));
    const wide = (n: number) => "☀".repeat(n);
    const phones = Array.from({ length: 400 }, uniquePhone);
    const file = (first: string) =>
      [
        ["firstName", "lastName", "phone", "company", "address", "city", ...custom].join(","),
        ...phones.map((ph) =>
          [first + wide(99), wide(100), ph, wide(200), wide(300), wide(100), ...custom.map(() => wide(200))].join(","),
        ),
      ].join("\n");
    // ~8 KB of JSON a row: 3.2 MB for the 400 staged rows, and again for the chunk the import writes.
    const imp = await stageContactImport(mdb, { name: "long.csv", text: file("A") }, { userId: u.id }, now());
    expect(imp).toMatchObject({ validRows: 400, errorCount: 0 });
    expect(
      await startContactImport(mdb, { id: imp.id, userId: u.id, mode: "skip", clock: now, enqueue: async () => {} }),
    ).toMatchObject({ status: "completed", createdCount: 400 });
    const again = await stageContactImport(mdb, { name: "long.csv", text: file("B") }, { userId: u.id }, now());
    expect(
      await startContactImport(mdb, {
        id: again.id,
        userId: u.id,
        mode: "update",
        clock: now,
        enqueue: async () => {},
      }),
    ).toMatchObject({ status: "completed", updatedCount: 400 });
    const stored = await db().all<{ first_name: string; address: string }>(
      sql`SELECT first_name, address FROM contacts WHERE phone IN (SELECT value FROM json_each(${JSON.stringify(phones)}))`,
    );
    expect(stored).toHaveLength(400);
    expect(stored.every((c) => c.first_name === "B" + wide(99) && c.address === wide(300))).toBe(true);
    expect(measured.seen.maxValueBytes).toBeLessThanOrEqual(1_000_000);
  });

  it("the queue handler finishes an import bigger than one chunk", async () => {
    const u = await createTestUser();
    const phones = Array.from({ length: 2300 }, uniquePhone);
    const imp = await stage(u.id, csv(phones.map((ph, i) => `Q${i},Queue,${ph},,`)));
    // As the confirm action does: one chunk inline, the rest through the queue.
    const enqueued: number[] = [];
    const started = await startContactImport(db(), {
      id: imp.id,
      userId: u.id,
      mode: "skip",
      clock: now,
      enqueue: async (id) => void enqueued.push(id),
    });
    expect(started.status).toBe("importing");
    expect(started.processedRows).toBe(1000);
    expect(enqueued).toEqual([imp.id]);

    const batch = createMessageBatch("helio-jobs", [
      { id: "m1", timestamp: new Date(), attempts: 1, body: { v: 1, type: "import-contacts", importId: imp.id } },
    ]);
    const ctx = createExecutionContext();
    await worker.queue(batch, env);
    const result = await getQueueResult(batch, ctx);
    expect(result.ackAll).toBe(true);
    expect(result.retryMessages).toEqual([]);
    expect(await getContactImport(db(), imp.id, u.id)).toMatchObject({
      status: "completed",
      processedRows: 2300,
      createdCount: 2300,
    });
    const stored = await db().select({ n: contacts.id }).from(contacts).where(eq(contacts.lastName, "Queue"));
    expect(stored.length).toBeGreaterThanOrEqual(2300);
    expect(await contactsByPhone(phones.slice(0, 90))).toHaveLength(90);
  });
});
