import { eq, inArray, isNull, or, sql, type SQL } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { contacts } from "~/db/schema";
import { listContactMessages } from "~/conversations/list-contact-messages.server";
import { sendReply } from "~/conversations/send-reply.server";
import { exportContacts } from "./export-contacts.server";
import { loadContactPicker } from "./load-contact-picker.server";
import { call, createTestUser, db, loginAs, signedIn } from "../../tests/factories";
import { createTestContact, uniquePhone, uniqueTag } from "../../tests/contact-factory";
import { appHooks, DAYTIME, pipeline } from "../../tests/messaging-harness";
import {
  contactScope,
  seesAllContacts,
  setEveryUserSeesAllContacts,
  viewerOf,
  type ContactScope,
} from "./contact-scope.server";
import { ftsScopeTerm, listContacts, selectContactsPage, scopedPageStatements } from "./list-contacts.server";
import { plan } from "../../tests/query-plan";

/** Two reps and a contact set with a shared searchable tag: `n` each for A, for B and with no owner. */
async function team(n = 4) {
  const [a, b] = [await createTestUser(), await createTestUser()];
  const tag = uniqueTag("Scope");
  const made: { id: number; owner: number | null }[] = [];
  // Interleaved, so every page of the merged list mixes owners.
  for (let i = 0; i < n; i++) {
    for (const owner of [a.id, b.id, null]) {
      const c = await createTestContact(a.id, { lastName: tag });
      await db().update(contacts).set({ ownerUserId: owner }).where(eq(contacts.id, c.id));
      made.push({ id: c.id, owner });
    }
  }
  return { a, b, tag, made };
}

/** Every page of a list, walked forwards with `after`, then back with `before` from the last page. */
async function walk(opts: Parameters<typeof listContacts>[1], limit: number) {
  const pages: number[][] = [];
  let after: number | null = null;
  for (;;) {
    const p = await listContacts(db(), { ...opts, after, limit });
    pages.push(p.contacts.map((c) => c.id));
    if (p.nextCursor === null) break;
    after = p.nextCursor;
  }
  const back: number[][] = [pages.at(-1)!];
  let before = pages.at(-1)![0];
  for (;;) {
    const p = await listContacts(db(), { ...opts, before, limit });
    if (!p.contacts.length) break;
    back.unshift(p.contacts.map((c) => c.id));
    if (p.prevCursor === null) break;
    before = p.prevCursor;
  }
  return { forward: pages.flat(), back: back.flat() };
}

describe("contact scope (decision 048)", () => {
  it("the rule: a standard user their own and unowned contacts, a superuser all, the setting all for everyone", () => {
    const user = { userId: 7, role: "user" } as const;
    expect(contactScope(user, { everyUserSeesAll: false })).toEqual({ kind: "own-or-unassigned", userId: 7 });
    expect(contactScope(user, { everyUserSeesAll: true })).toEqual({ kind: "all" });
    expect(contactScope({ userId: 1, role: "superuser" }, { everyUserSeesAll: false })).toEqual({ kind: "all" });
  });

  it("the list, searched (FTS) or not, pages B through B's own and the unowned contacts only, newest first, both ways", async () => {
    const { b, tag, made } = await team();
    const expected = made
      .filter((m) => m.owner === null || m.owner === b.id)
      .map((m) => m.id)
      .sort((x, y) => y - x);
    const searched = await walk({ q: tag, viewer: viewerOf(b) }, 3);
    expect(searched.forward).toEqual(expected);
    expect(searched.back).toEqual(expected);
    // Unsearched: the whole table in B's scope — the seeded ones among them, none of A's.
    const all = await walk({ viewer: viewerOf(b) }, 5);
    expect(all.forward).toEqual([...all.forward].sort((x, y) => y - x));
    expect(all.back).toEqual(all.forward);
    const rows = await db()
      .select({ id: contacts.id, owner: contacts.ownerUserId })
      .from(contacts)
      .where(inArray(contacts.id, all.forward));
    expect(rows.every((r) => r.owner === null || r.owner === b.id)).toBe(true);
    expect(all.forward.filter((id) => made.some((m) => m.id === id))).toEqual(expected);
    // The owner filter within the scope: "none", "me"; another rep's id is nothing.
    const unowned = await listContacts(db(), { q: tag, owner: "none", viewer: viewerOf(b) });
    expect(unowned.contacts.map((c) => c.id)).toEqual(
      made
        .filter((m) => m.owner === null)
        .map((m) => m.id)
        .reverse(),
    );
    const others = await listContacts(db(), { q: tag, owner: made[0].owner!, viewer: viewerOf(b) });
    expect(others.contacts).toEqual([]);
  });

  it("a short search (the bounded LIKE scan) is scoped too", async () => {
    const { b, made } = await team(2);
    const page = await listContacts(db(), { q: "Sc", viewer: viewerOf(b), limit: 1000 });
    const ids = page.contacts.map((c) => c.id);
    const aIds = made.filter((m) => m.owner !== null && m.owner !== b.id).map((m) => m.id);
    expect(ids.filter((id) => aIds.includes(id))).toEqual([]);
    expect(ids).toEqual(expect.arrayContaining(made.filter((m) => m.owner !== made[0].owner).map((m) => m.id)));
  });

  it("export, the pickers, a contact's messages and a reply keep to the scope", async () => {
    const { a, b, tag, made } = await team(1);
    const aContact = made.find((m) => m.owner === a.id)!.id;
    const file = await exportContacts(db(), tag, "txt", viewerOf(b));
    const text = await new Response(file!.stream).text();
    expect(text.trim().split("\n")).toHaveLength(2);
    const picker = await loadContactPicker(db(), { q: tag }, viewerOf(b));
    expect(picker.contacts.map((c) => c.id)).not.toContain(aContact);
    expect(picker.contacts).toHaveLength(2);
    await expect(listContactMessages(db(), aContact, viewerOf(b))).rejects.toMatchObject({ code: "not_found" });
    await expect(listContactMessages(db(), aContact, viewerOf(a))).resolves.toMatchObject({ messages: [] });
    const { deps, queue } = await pipeline({ clock: () => DAYTIME });
    const [phone] = await db().select({ phone: contacts.phone }).from(contacts).where(eq(contacts.id, aContact));
    const reply = (to: { contactId: number } | { phone: string }) =>
      sendReply(
        { db: deps.db, queue, now: DAYTIME, hooks: appHooks },
        to,
        { message: "Hi", nonce: crypto.randomUUID() },
        { userId: b.id, role: "user", ipAddress: null },
      );
    await expect(reply({ contactId: aContact })).rejects.toMatchObject({ code: "not_found" });
    // The same contact addressed by its number (the bare-number conversation screen).
    await expect(reply({ phone: phone.phone })).rejects.toMatchObject({ code: "not_found" });
  });

  it("a contact a rep adds (screen or API) is theirs; a superuser's stays unowned for round-robin", async () => {
    const { user: rep, cookie } = await signedIn();
    const boss = await createTestUser({ role: "superuser" });
    const bossCookie = await loginAs(boss);
    const ownerOf = async (phone: string) =>
      (await db().select({ o: contacts.ownerUserId }).from(contacts).where(eq(contacts.phone, phone)))[0]?.o;
    const byForm = uniquePhone();
    const form = await call("/contacts/new", {
      method: "POST",
      cookie,
      body: new URLSearchParams({ firstName: "Door", lastName: "Knock", phone: byForm }),
    });
    expect(form.status).toBe(302);
    expect(await ownerOf(byForm)).toBe(rep.id);
    const byApi = uniquePhone();
    const api = await call("/api/contacts", {
      method: "POST",
      cookie,
      json: { firstName: "A", lastName: "B", phone: byApi },
    });
    expect(api.status).toBe(201);
    expect(await ownerOf(byApi)).toBe(rep.id);
    const byBoss = uniquePhone();
    const boss201 = await call("/api/contacts", {
      method: "POST",
      cookie: bossCookie,
      json: { firstName: "C", lastName: "D", phone: byBoss },
    });
    expect(boss201.status).toBe(201);
    expect(await ownerOf(byBoss)).toBeNull();
  });

  it("the setting: off by default; on, every user sees all; off again", async () => {
    const b = await createTestUser();
    const su = await createTestUser({ role: "superuser" });
    expect(await seesAllContacts(viewerOf(b), db())).toBe(false);
    expect(await seesAllContacts(viewerOf(su), db())).toBe(true);
    await setEveryUserSeesAllContacts(db(), true, { userId: su.id, ipAddress: null }, new Date());
    try {
      expect(await seesAllContacts(viewerOf(b), db())).toBe(true);
    } finally {
      await setEveryUserSeesAllContacts(db(), false, { userId: su.id, ipAddress: null }, new Date());
    }
    expect(await seesAllContacts(viewerOf(b), db())).toBe(false);
  });

  it("plans: the scoped list is two seeks of contacts_owner_idx (no scan, no sort); the FTS walk reads each match by key", async () => {
    const scope: ContactScope = { kind: "own-or-unassigned", userId: 7 };
    const cursors: [SQL | undefined, boolean][] = [
      [undefined, false],
      [sql`${contacts.id} < 1000`, false],
      [sql`${contacts.id} > 10`, true],
    ];
    for (const [cursor, backwards] of cursors) {
      for (const q of scopedPageStatements(db(), scope, cursor, backwards, 51)) {
        const p = await plan(q.getSQL());
        expect(p).toMatch(/SEARCH contacts USING (COVERING )?INDEX contacts_owner_idx/);
        expect(p).not.toMatch(/SCAN contacts\b|USE TEMP B-TREE/);
      }
    }
    const fts = await plan(
      sql`SELECT rowid AS id FROM contacts_fts WHERE contacts_fts MATCH ${'"abc"'} ${ftsScopeTerm(scope)} ORDER BY rowid DESC LIMIT 51`,
    );
    expect(fts).toMatch(/SEARCH contacts USING INTEGER PRIMARY KEY/);
    expect(fts).not.toMatch(/SCAN contacts\b|USE TEMP B-TREE/);
    // Why two statements: the OR of the two owners, newest first, is not one index walk.
    const or1 = await plan(
      selectContactsPage(db(), or(isNull(contacts.ownerUserId), eq(contacts.ownerUserId, 7)), false, 51).getSQL(),
    );
    expect(or1).toMatch(/SCAN contacts|USE TEMP B-TREE/);
  });
});
