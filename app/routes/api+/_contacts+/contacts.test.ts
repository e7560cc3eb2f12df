import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { activityLog, contacts } from "~/db/schema";
import { PHONE_REASONS } from "~/contacts/phone";
import { createTestContact, seedContacts, uniquePhone, uniqueTag } from "../../../../tests/contact-factory";
import { call, createTestUser, db, loginAs, postRaw, signedIn } from "../../../../tests/factories";

const REQUIRED = "Please fill in all required fields (First Name, Last Name, Phone).";
const pretty = (p: string) => `(${p.slice(2, 5)}) ${p.slice(5, 8)}-${p.slice(8)}`;

function toastCookie(res: Response) {
  return res.headers
    .getSetCookie()
    .find((c) => c.startsWith("helio_toast="))
    ?.split(";")[0];
}

describe("/api/contacts", () => {
  it("needs a session", async () => {
    expect((await call("/api/contacts")).status).toBe(401);
    expect((await call("/api/contacts", { method: "POST", json: {} })).status).toBe(401);
    expect((await call("/api/contacts/1", { method: "DELETE" })).status).toBe(401);
    expect((await call("/api/contacts/bulk", { method: "POST", json: [] })).status).toBe(401);
  });

  it("creates a contact (201, phone normalised, create_contact logged) and lists it", async () => {
    const { user, cookie } = await signedIn();
    const phone = uniquePhone();
    const company = uniqueTag("Api");
    const res = await call("/api/contacts", {
      method: "POST",
      cookie,
      json: { firstName: " Ada ", lastName: "Lovelace", phone: pretty(phone), email: "ADA@Example.com", company },
      headers: { "CF-Connecting-IP": "198.51.100.4" },
    });
    expect(res.status).toBe(201);
    const body = await res.json<any>();
    expect(body).toMatchObject({
      firstName: "Ada",
      lastName: "Lovelace",
      phone,
      email: "ada@example.com",
      company,
      sendable: true,
      unsendableReason: null,
    });
    const log = await db()
      .select()
      .from(activityLog)
      .where(and(eq(activityLog.userId, user.id), eq(activityLog.action, "create_contact")));
    expect(log).toMatchObject([{ ipAddress: "198.51.100.4", details: { phone, name: "Ada Lovelace" } }]);

    const list = await call(`/api/contacts?q=${company}`, { cookie });
    expect(list.status).toBe(200);
    expect((await list.json<any[]>()).map((c) => c.id)).toEqual([body.id]);
  });

  it("answers 400 with the spec's sentence for missing required fields, and the first problem otherwise", async () => {
    const { cookie } = await signedIn();
    for (const json of [
      {},
      { firstName: "A", lastName: "B" },
      { firstName: "  ", lastName: "B", phone: "5551234567" },
      { firstName: "A", lastName: null, phone: "1" },
    ]) {
      const res = await call("/api/contacts", { method: "POST", cookie, json });
      expect(res.status).toBe(400);
      expect(await res.json()).toEqual({ message: REQUIRED });
    }
    const email = await call("/api/contacts", {
      method: "POST",
      cookie,
      json: { firstName: "A", lastName: "B", phone: uniquePhone(), email: "nope" },
    });
    expect(email.status).toBe(400);
    expect(await email.json()).toEqual({ message: "email: Please enter a valid email address" });
    expect((await postRaw("/api/contacts", cookie, "x", "text/plain")).status).toBe(415);
    expect((await postRaw("/api/contacts", cookie, "{", "application/json")).status).toBe(400);
  });

  it("answers 409 for a phone that already exists, however it is written", async () => {
    const { user, cookie } = await signedIn();
    const existing = await createTestContact(user.id, { firstName: "First", lastName: "Owner" });
    const res = await call("/api/contacts", {
      method: "POST",
      cookie,
      json: { firstName: "A", lastName: "B", phone: pretty(existing.phone) },
    });
    expect(res.status).toBe(409);
    expect(await res.json()).toEqual({ message: "A contact with this phone number already exists (First Owner)" });
  });

  it("keeps an impossible number but flags it not sendable with the reason", async () => {
    const { cookie } = await signedIn();
    const res = await call("/api/contacts", {
      method: "POST",
      cookie,
      json: { firstName: "A", lastName: "B", phone: `+44 20 ${Math.floor(1e7 + Math.random() * 8e7)}` },
    });
    expect(res.status).toBe(201);
    expect(await res.json()).toMatchObject({ sendable: false, unsendableReason: PHONE_REASONS.international });
  });

  it("updates (PUT, also partial), deletes (204) and 404s unknown ids", async () => {
    const { user, cookie } = await signedIn();
    const c = await createTestContact(user.id, { company: "Before", city: "Fresno" });
    const phone = uniquePhone();
    const put = await call(`/api/contacts/${c.id}`, {
      method: "PUT",
      cookie,
      json: { firstName: "New", lastName: "Name", phone: phone.slice(1), company: "After" },
    });
    expect(put.status).toBe(200);
    expect(await put.json()).toMatchObject({ id: c.id, firstName: "New", phone, company: "After", city: "Fresno" });
    const partial = await call(`/api/contacts/${c.id}`, { method: "PUT", cookie, json: { city: "Tulsa" } });
    expect(await partial.json()).toMatchObject({ firstName: "New", city: "Tulsa" });
    const empty = await call(`/api/contacts/${c.id}`, { method: "PUT", cookie, json: { firstName: "" } });
    expect(empty.status).toBe(400);
    expect(await empty.json()).toEqual({ message: REQUIRED });
    expect((await call(`/api/contacts/${c.id}`, { method: "PATCH", cookie, json: {} })).status).toBe(405);

    for (const id of ["999999999", "abc", "0"]) {
      const res = await call(`/api/contacts/${id}`, {
        method: "PUT",
        cookie,
        json: { firstName: "A", lastName: "B", phone: uniquePhone() },
      });
      expect(res.status, id).toBe(404);
      expect(await res.json()).toEqual({ message: "Contact not found" });
    }
    expect((await call(`/api/contacts/${c.id}`, { method: "DELETE", cookie })).status).toBe(204);
    const again = await call(`/api/contacts/${c.id}`, { method: "DELETE", cookie });
    expect(again.status).toBe(404);
    expect(await again.json()).toEqual({ message: "Contact not found" });
  });

  it("pages with limit and X-Next-Cursor, and rejects a malformed limit", async () => {
    const { cookie } = await signedIn();
    const company = uniqueTag("Pg");
    const seeded = await seedContacts(5, () => ({ company }));
    const first = await call(`/api/contacts?q=${company}&limit=3`, { cookie });
    const cursor = first.headers.get("X-Next-Cursor");
    expect(cursor).not.toBeNull();
    const second = await call(`/api/contacts?q=${company}&limit=3&after=${cursor}`, { cookie });
    expect(second.headers.get("X-Next-Cursor")).toBeNull();
    const ids = [...(await first.json<any[]>()), ...(await second.json<any[]>())].map((c) => c.id);
    expect(ids).toEqual(seeded.map((c) => c.id).reverse());
    const bad = await call("/api/contacts?limit=abc", { cookie });
    expect(bad.status).toBe(400);
    expect((await bad.json<any>()).message).toMatch(/^limit: /);
  });
});

describe("/api/contacts/bulk", () => {
  it("takes a bare array or { contacts }, de-duplicates in the request and against the DB, and reports counts", async () => {
    const { user, cookie } = await signedIn();
    const existing = await createTestContact(user.id, { firstName: "Was", company: "Old" });
    const p1 = uniquePhone();
    const bare = await call("/api/contacts/bulk", {
      method: "POST",
      cookie,
      json: [
        { firstName: "A", lastName: "One", phone: pretty(p1) },
        { firstName: "A", lastName: "Again", phone: p1 },
        { firstName: "B", lastName: "Db", phone: existing.phone, company: "New" },
        { firstName: "C", lastName: "", phone: uniquePhone() },
      ],
    });
    expect(bare.status).toBe(200);
    expect(await bare.json()).toEqual({
      created: 1,
      updated: 0,
      duplicates: 2,
      rejected: 1,
      errors: [`Contact 4: ${REQUIRED}`],
    });

    const wrapped = await call("/api/contacts/bulk?onDuplicate=update", {
      method: "POST",
      cookie,
      json: {
        contacts: [
          { firstName: "B", lastName: "Db", phone: existing.phone, company: "New" },
          { firstName: "D", lastName: "New", phone: uniquePhone() },
        ],
      },
    });
    expect(await wrapped.json()).toMatchObject({ created: 1, updated: 1, duplicates: 0, rejected: 0 });
    expect((await db().select().from(contacts).where(eq(contacts.id, existing.id)).get())?.company).toBe("New");

    const bodyMode = await call("/api/contacts/bulk", {
      method: "POST",
      cookie,
      json: { onDuplicate: "update", contacts: [{ firstName: "E", lastName: "Db", phone: existing.phone }] },
    });
    expect(await bodyMode.json()).toMatchObject({ updated: 1 });
  });

  it("refuses empty, non-array, oversize bodies and an unknown duplicate mode", async () => {
    const { cookie } = await signedIn();
    for (const json of [[], {}, { contacts: "x" }, "text"]) {
      const res = await call("/api/contacts/bulk", { method: "POST", cookie, json });
      expect(res.status, JSON.stringify(json)).toBe(400);
      expect(typeof (await res.json<any>()).message).toBe("string");
    }
    const big = await call("/api/contacts/bulk", {
      method: "POST",
      cookie,
      json: new Array(10_001).fill({ firstName: "a" }),
    });
    expect(big.status).toBe(413);
    expect(await big.json()).toEqual({
      message: "Too many contacts in one request (maximum 10,000). Use Upload CSV for larger files.",
    });
    const mode = await call("/api/contacts/bulk?onDuplicate=merge", {
      method: "POST",
      cookie,
      json: [{ firstName: "a" }],
    });
    expect(mode.status).toBe(400);
    expect((await call("/api/contacts/bulk", { cookie })).status).toBe(405);
  });
});

describe("contact dialogs (form posts, no JS needed)", () => {
  it("add: 400 with the required-fields alert and field errors; 302 with a toast on success; 409 for a known phone", async () => {
    const { user, cookie } = await signedIn();
    const bad = await call("/contacts/new?q=abc", {
      method: "POST",
      cookie,
      body: new URLSearchParams({ firstName: " ", lastName: "", phone: "" }),
    });
    expect(bad.status).toBe(400);
    const html = await bad.text();
    expect(html).toContain("Required fields missing");
    expect(html).toContain(REQUIRED);
    expect(html).toContain("First name is required");
    expect(html).toContain("Last name is required");
    expect(html).toContain("Phone is required");

    const phone = uniquePhone();
    const ok = await call("/contacts/new?q=abc", {
      method: "POST",
      cookie,
      body: new URLSearchParams({ firstName: "Form", lastName: "Made", phone: phone.slice(2) }),
    });
    expect(ok.status).toBe(302);
    expect(ok.headers.get("Location")).toBe("/contacts?q=abc");
    const page = await (await call("/contacts?q=abc", { headers: { Cookie: `${cookie}; ${toastCookie(ok)}` } })).text();
    expect(page).toContain("Contact created");
    expect(await db().select().from(contacts).where(eq(contacts.phone, phone))).toHaveLength(1);

    const dup = await call("/contacts/new", {
      method: "POST",
      cookie,
      body: new URLSearchParams({ firstName: "X", lastName: "Y", phone }),
    });
    expect(dup.status).toBe(409);
    expect(await dup.text()).toContain("A contact with this phone number already exists (Form Made)");
    expect(user.id).toBeGreaterThan(0);
  });

  it("edit and delete with confirmation; unknown ids are 404", async () => {
    const { user, cookie } = await signedIn();
    const c = await createTestContact(user.id, { firstName: "Edit", lastName: "Me", company: "Co" });
    const form = await call(`/contacts/${c.id}/edit`, { cookie });
    expect(form.status).toBe(200);
    const formHtml = await form.text();
    expect(formHtml).toContain('value="Edit"');
    expect(formHtml).toContain("Edit Contact");

    const invalid = await call(`/contacts/${c.id}/edit`, {
      method: "POST",
      cookie,
      body: new URLSearchParams({ firstName: "Edit", lastName: "Me", phone: c.phone, email: "bad" }),
    });
    expect(invalid.status).toBe(400);
    expect(await invalid.text()).toContain("Please enter a valid email address");

    const saved = await call(`/contacts/${c.id}/edit`, {
      method: "POST",
      cookie,
      body: new URLSearchParams({ firstName: "Edited", lastName: "Me", phone: c.phone, company: "" }),
    });
    expect(saved.status).toBe(302);
    expect(await db().select().from(contacts).where(eq(contacts.id, c.id)).get()).toMatchObject({
      firstName: "Edited",
      company: null,
    });

    const confirm = await call(`/contacts/${c.id}/delete`, { cookie });
    expect(await confirm.text()).toContain("Are you sure you want to delete this contact?");
    const del = await call(`/contacts/${c.id}/delete`, { method: "POST", cookie, body: new URLSearchParams() });
    expect(del.status).toBe(302);
    expect(await db().select().from(contacts).where(eq(contacts.id, c.id))).toHaveLength(0);

    for (const path of [`/contacts/${c.id}/edit`, `/contacts/${c.id}/delete`, "/contacts/abc/edit"]) {
      expect((await call(path, { cookie })).status, path).toBe(404);
    }
    expect((await call(`/contacts/${c.id}/edit`)).status).toBe(302); // signed out → login
  });

  it("the list shows the not-sendable badge with its reason and searches on the server", async () => {
    const { user, cookie } = await signedIn();
    const company = uniqueTag("List");
    await createTestContact(user.id, { company, phone: String(Math.floor(1e5 + Math.random() * 8e5)) });
    const html = await (await call(`/contacts?q=${company}`, { cookie })).text();
    expect(html).toContain("Not sendable");
    expect(html).toContain(PHONE_REASONS.notUs);
    for (const text of ["Quick Upload &amp; Send", "Upload CSV", "Add Contact", "Download", ">JSON<", ">CSV<", ">TXT<"])
      expect(html).toContain(text);
    const none = await (await call(`/contacts?q=${uniqueTag("zz")}`, { cookie })).text();
    expect(none).toContain("No contacts match");
  });
});

describe("list paging links (no JS needed)", () => {
  it("offers Next and Previous keyset links that keep the search", async () => {
    const { cookie } = await signedIn();
    const company = uniqueTag("Links");
    const seeded = await seedContacts(60, () => ({ company }));
    const html = async (path: string) => (await call(path, { cookie })).text().then((t) => t.replaceAll("&amp;", "&"));
    const first = await html(`/contacts?q=${company}`);
    expect(first).not.toContain(">Previous<");
    const next = /href="(\/contacts\?q=[^"]+&after=\d+)"[^>]*>Next</.exec(first)?.[1];
    expect(next).toBeDefined();
    const second = await html(next!);
    expect((second.match(/data-testid="contact-row"/g) ?? []).length).toBe(10);
    expect(second).toContain(seeded[0].lastName);
    expect(second).not.toContain(">Next<");
    const prev = /href="(\/contacts\?q=[^"]+&before=\d+)"[^>]*>Previous</.exec(second)?.[1];
    const back = await html(prev!);
    expect((back.match(/data-testid="contact-row"/g) ?? []).length).toBe(50);
    expect(back).toContain(seeded[59].lastName);
  });
});

describe("Upload CSV → preview → import (no JS needed)", () => {
  async function upload(cookie: string, text: string, name = "leads.csv") {
    const form = new FormData();
    form.set("file", new File([text], name, { type: "text/csv" }));
    return call("/contacts/upload", { method: "POST", cookie, body: form });
  }

  /** The Match columns step as a browser without JS posts it: each select's pre-selected option, then `change`. */
  async function matchColumns(location: string, cookie: string, change: Record<string, string> = {}) {
    const page = await (await call(location, { cookie })).text();
    expect(page).toContain("Match columns");
    const form = new URLSearchParams({ intent: "match" });
    for (const m of page.matchAll(/<select[^>]*name="(col\d+)"[^>]*>([\s\S]*?)<\/select>/g))
      form.set(m[1], /<option value="([^"]*)" selected=""/.exec(m[2])?.[1] ?? "");
    for (const [k, v] of Object.entries(change)) form.set(k, v);
    return { page, form, res: await call(location, { method: "POST", cookie, body: form }) };
  }

  it("stages the file, shows the preview and errors, imports on confirm and reports the counts", async () => {
    const { user, cookie } = await signedIn();
    const existing = await createTestContact(user.id);
    const tag = uniqueTag("Up");
    const phones = Array.from({ length: 12 }, uniquePhone);
    const text = [
      "First Name,Last Name,Phone Number,Email,Company",
      `Ann,${tag},${phones[0]},,`,
      `Bad,Row,,,`, // row 3
      ...phones.slice(1).map((p, i) => `N${i},${tag},${pretty(p)},,`),
      `Dup,${tag},${phones[0]},,`,
      `Db,${tag},${existing.phone},,`,
      ...Array.from({ length: 6 }, () => `,,,,x`),
    ].join("\r\n");
    const res = await upload(cookie, text);
    expect(res.status).toBe(302);
    const location = res.headers.get("Location")!;
    expect(location).toMatch(/^\/contacts\/imports\/\d+$/);
    expect((await matchColumns(location, cookie)).res.status).toBe(302);

    const preview = await (await call(location, { cookie })).text();
    expect(preview).toContain("Row 3: Phone number is required");
    expect(preview).toContain("... and 14 more errors"); // 19 error lines, 5 shown
    // One of the 13 is already a contact (issue 24, item 12: the preview says what Import will do).
    expect(preview).toContain("Import: 12 new, 1 existing");
    expect(preview).toContain(">N8<");
    expect(preview).not.toContain(">N9<"); // only the first 10 valid rows
    // Nothing imported yet.
    expect(await db().select().from(contacts).where(eq(contacts.lastName, tag))).toHaveLength(0);

    // Another user cannot see it.
    const other = await loginAs(await createTestUser());
    expect((await call(location, { cookie: other })).status).toBe(404);

    const confirm = await call(location, {
      method: "POST",
      cookie,
      body: new URLSearchParams({ intent: "confirm", duplicateMode: "skip" }),
    });
    expect(confirm.status).toBe(302);
    const result = await (await call(location, { cookie })).text();
    expect(result).toContain("Created 12, updated 0, skipped 2 duplicates, rejected 7 rows");
    expect(await db().select().from(contacts).where(eq(contacts.lastName, tag))).toHaveLength(12);

    const done = await call(location, { method: "POST", cookie, body: new URLSearchParams({ intent: "done" }) });
    expect(done.status).toBe(302);
    expect(done.headers.get("Location")).toBe("/contacts");
    const list = await (await call("/contacts", { headers: { Cookie: `${cookie}; ${toastCookie(done)}` } })).text();
    expect(list).toContain("Contacts imported");
  });

  it("a re-import of the same file previews what will really happen (0 new, all existing) and the result matches it (issue 24, item 12)", async () => {
    const { cookie } = await signedIn();
    const tag = uniqueTag("Re");
    const phones = Array.from({ length: 4 }, uniquePhone);
    const text = [
      "First Name,Last Name,Phone Number,Email",
      ...phones.map((p, i) => `R${i},${tag},${p},r${i}.${tag}@example.com`),
    ].join("\r\n");
    const once = async (duplicateMode: string) => {
      const location = (await upload(cookie, text)).headers.get("Location")!;
      await matchColumns(location, cookie);
      const preview = await (await call(location, { cookie })).text();
      await call(location, { method: "POST", cookie, body: new URLSearchParams({ intent: "confirm", duplicateMode }) });
      return { preview, result: await (await call(location, { cookie })).text() };
    };
    const first = await once("skip");
    expect(first.preview).toContain("Import 4 contacts");
    expect(first.result).toContain("Created 4, updated 0, skipped 0 duplicates");

    const again = await once("skip");
    expect(again.preview).not.toContain("Import 4 contacts");
    expect(again.preview).toContain("Import: 0 new, 4 existing");
    expect(again.preview).toMatch(/data-testid="import-new"><strong>0<\/strong> new/);
    expect(again.preview).toContain(
      "4 with the same phone: Skip leaves them unchanged, Update fills in this file&#x27;s values.",
    );
    expect(again.result).toContain("Created 0, updated 0, skipped 4 duplicates");

    const update = await once("update");
    expect(update.preview).toContain("Import: 0 new, 4 existing");
    expect(update.result).toContain("Created 0, updated 4, skipped 0 duplicates");
    expect(await db().select().from(contacts).where(eq(contacts.lastName, tag))).toHaveLength(4);
  });

  it("refuses non-.csv files and broken CSV with the spec's messages; a file without valid rows cannot be imported", async () => {
    const { cookie } = await signedIn();
    const xlsx = await upload(cookie, "firstName,lastName,phone\nA,B,5551234567", "leads.xlsx");
    expect(xlsx.status).toBe(400);
    expect(await xlsx.text()).toContain("Please upload a .csv file");
    const broken = await upload(cookie, "just one line");
    expect(broken.status).toBe(400);
    expect(await broken.text()).toContain("Failed to parse CSV file. Please check the format.");

    const none = await upload(cookie, "firstName,lastName,phone\nA,,\n");
    await matchColumns(none.headers.get("Location")!, cookie);
    const page = await (await call(none.headers.get("Location")!, { cookie })).text();
    expect(page).toMatch(/<button[^>]*disabled=""[^>]*>No valid contacts<\/button>/);
    const confirm = await call(none.headers.get("Location")!, {
      method: "POST",
      cookie,
      body: new URLSearchParams({ intent: "confirm" }),
    });
    expect(confirm.status).toBe(400);
    expect(await confirm.text()).toContain("No valid contacts");
  });

  it("a Google Contacts export: the Match columns step with the guesses, a column ignored, the phone refused when unmatched, the choice remembered for the same headers", async () => {
    const { user, cookie } = await signedIn();
    const tag = uniqueTag("Gc");
    const [mobile, home] = [uniquePhone(), uniquePhone()];
    const header =
      "Name,Given Name,Family Name,E-mail 1 - Type,E-mail 1 - Value,Phone 1 - Type,Phone 1 - Value,Phone 2 - Type,Phone 2 - Value,Address 1 - City,Address 1 - Region,Address 1 - Postal Code,Notes";
    const text = `${header}\nAna ${tag},Ana,${tag},* Home,ana@example.com,Home,${home},Mobile,${mobile},Albany,NY,12207,VIP\n`;
    const location = (await upload(cookie, text, "contacts.csv")).headers.get("Location")!;
    // The guesses are pre-selected; nothing is staged as contacts yet.
    const first = await call(location, { cookie });
    const html = await first.text();
    expect(html).toMatch(/name="col1"[^>]*>[\s\S]*?<option value="firstName" selected=""/);
    expect(html).toMatch(/name="col8"[^>]*>[\s\S]*?<option value="phone" selected=""/);
    expect(html).toMatch(/name="col12"[^>]*>[\s\S]*?<option value="" selected=""/); // Notes: ignored
    expect(html).not.toContain("columns-remembered");

    // Every phone column set to Ignore: refused, with the reason, and still waiting for its columns.
    const noPhone = await matchColumns(location, cookie, { col6: "", col8: "" });
    expect(noPhone.res.status).toBe(400);
    expect(await noPhone.res.text()).toContain("No column is matched to Phone");

    // The city column ignored: imported without it; the mobile (Phone 2) chosen over the home number (Phone 1).
    expect((await matchColumns(location, cookie, { col9: "" })).res.status).toBe(302);
    const preview = await (await call(location, { cookie })).text();
    expect(preview).toContain("Import 1 contact");
    await call(location, {
      method: "POST",
      cookie,
      body: new URLSearchParams({ intent: "confirm", duplicateMode: "skip" }),
    });
    const [saved] = await db()
      .select()
      .from(contacts)
      .where(and(eq(contacts.lastName, tag), eq(contacts.createdBy, user.id)));
    expect(saved).toMatchObject({
      firstName: "Ana",
      phone: mobile,
      email: "ana@example.com",
      city: null,
      state: "NY",
      zipCode: "12207",
    });

    // The same headers again: the choice made last time (city ignored) is pre-selected.
    const again = (
      await upload(cookie, `${header}\nBo Diaz,Bo,Diaz,,,,,Mobile,${uniquePhone()},Troy,NY,12180,\n`, "more.csv")
    ).headers.get("Location")!;
    const second = await (await call(again, { cookie })).text();
    expect(second).toContain("columns-remembered");
    expect(second).toMatch(/name="col9"[^>]*>[\s\S]*?<option value="" selected=""/);
  });

  it("cancel drops the staged rows", async () => {
    const { cookie } = await signedIn();
    const res = await upload(cookie, `firstName,lastName,phone\nA,B,${uniquePhone()}\n`);
    const location = res.headers.get("Location")!;
    const cancel = await call(location, { method: "POST", cookie, body: new URLSearchParams({ intent: "cancel" }) });
    expect(cancel.status).toBe(302);
    expect((await call(location, { cookie })).status).toBe(404);
  });

  it("serves the template as contacts_template.csv", async () => {
    const { cookie } = await signedIn();
    const res = await call("/contacts/template.csv", { cookie });
    expect(res.status).toBe(200);
    expect(res.headers.get("Content-Disposition")).toBe('attachment; filename="contacts_template.csv"');
    const text = await res.text();
    expect(text.split("\r\n").filter(Boolean)).toHaveLength(3);
    expect(text.startsWith("firstName,lastName,email,phone")).toBe(true);
  });
});

describe("download", () => {
  it("streams the searched list as CSV (every cell quoted, quotes doubled, formulas neutralised), JSON and TXT", async () => {
    const { user, cookie } = await signedIn();
    const company = uniqueTag("Dl");
    const a = await createTestContact(user.id, { firstName: 'Say "hi"', lastName: "Quote", company });
    const b = await createTestContact(user.id, { firstName: "=HYPERLINK(1)", lastName: "Formula", company });

    const csv = await call(`/contacts/download?format=csv&q=${company}`, { cookie });
    expect(csv.status).toBe(200);
    expect(csv.headers.get("Content-Type")).toBe("text/csv; charset=utf-8");
    expect(csv.headers.get("Content-Disposition")).toBe('attachment; filename="contacts.csv"');
    const lines = (await csv.text()).split("\r\n").filter(Boolean);
    expect(lines).toEqual([
      '"firstName","lastName","phone","email","company","address","city","state","zipCode"',
      `"'=HYPERLINK(1)","Formula","'${b.phone}","","${company}","","","",""`,
      `"Say ""hi""","Quote","'${a.phone}","","${company}","","","",""`,
    ]);

    const json = await call(`/contacts/download?format=json&q=${company}`, { cookie });
    expect(json.headers.get("Content-Disposition")).toBe('attachment; filename="contacts.json"');
    const parsed = await json.json<any[]>();
    expect(parsed.map((c) => c.lastName)).toEqual(["Formula", "Quote"]);
    expect(Object.keys(parsed[0])).not.toContain("id");

    const txt = await call(`/contacts/download?format=txt&q=${company}`, { cookie });
    expect(txt.headers.get("Content-Type")).toBe("text/plain; charset=utf-8");
    // Formula-safe like the CSV (issue 23): a spreadsheet splitting the lines on "|" runs nothing.
    expect(await txt.text()).toBe(
      `'=HYPERLINK(1) Formula | '${b.phone} | ${company}\nSay "hi" Quote | '${a.phone} | ${company}\n`,
    );
  });

  it("redirects back with 'No contacts to download' when the list is empty", async () => {
    const { cookie } = await signedIn();
    const q = uniqueTag("none");
    const res = await call(`/contacts/download?format=csv&q=${q}`, { cookie });
    expect(res.status).toBe(302);
    expect(res.headers.get("Location")).toBe(`/contacts?q=${q}`);
    const page = await (
      await call(`/contacts?q=${q}`, { headers: { Cookie: `${cookie}; ${toastCookie(res)}` } })
    ).text();
    expect(page).toContain("No contacts to download");
    expect((await call("/contacts/download")).status).toBe(302); // signed out → login
  });

  it("pages through more than one export page", async () => {
    const company = uniqueTag("Big");
    const { cookie } = await signedIn();
    await seedContacts(1100, () => ({ company }));
    const text = await (await call(`/contacts/download?format=csv&q=${company}`, { cookie })).text();
    expect(text.split("\r\n").filter(Boolean)).toHaveLength(1101);
  });
});
