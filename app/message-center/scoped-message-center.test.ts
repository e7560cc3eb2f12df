import { env } from "cloudflare:test";
import { eq, sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { contacts } from "~/db/schema";
import { createTestContact } from "../../tests/contact-factory";
import { measureD1, recordD1 } from "../../tests/d1-recorder";
import { call, createTestUser, db, loginAs, SEES_ALL } from "../../tests/factories";
import { getAnalytics } from "~/analytics/get-analytics.server";
import { listMessages, SCOPED_WINDOW, visibleTabCounts } from "./list-messages.server";

// Issue 27 item 6, decision 052: a standard user's Message Center and /api/messages show the messages of their own
// and unowned contacts and of numbers no contact has; never another rep's. Pages read a bounded window, not the table.
type Rep = Awaited<ReturnType<typeof createTestUser>>;
let repA: Rep;
let repB: Rep;
const viewer = (u: Rep) => ({ userId: u.id, role: u.role });

async function ownedContact(owner: Rep | null) {
  const c = await createTestContact((owner ?? repA).id);
  await db()
    .update(contacts)
    .set({ ownerUserId: owner?.id ?? null })
    .where(eq(contacts.id, c.id));
  return c;
}

/** `n` outbound rows for a contact (or a bare number), oldest first, in one statement. */
async function texts(n: number, to: { contactId: number | null; phone: string }, status = "delivered") {
  await db().run(sql`
    WITH RECURSIVE k(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM k WHERE i < ${n})
    INSERT INTO messages (direction, status, content, phone, contact_id, created_at, updated_at, idempotency_key)
    SELECT 'outbound', ${status}, 'scoped ' || i, ${to.phone}, ${to.contactId}, ${Date.now()} + i, ${Date.now()} + i,
      ${crypto.randomUUID()} || '-' || i
    FROM k`);
}

beforeAll(async () => {
  repA = await createTestUser({ role: "user" });
  repB = await createTestUser({ role: "user" });
});

describe("a standard user's Message Center (decision 052)", () => {
  it("shows their own, unowned and bare-number messages, never another rep's; counts them exactly when few", async () => {
    const a = await ownedContact(repA);
    const b = await ownedContact(repB);
    const u = await ownedContact(null);
    await texts(2, { contactId: a.id, phone: a.phone! });
    await texts(3, { contactId: b.id, phone: b.phone! });
    await texts(1, { contactId: u.id, phone: u.phone! });
    await texts(1, { contactId: null, phone: "+14155550199" });
    await texts(1, { contactId: b.id, phone: b.phone! }, "failed");

    const seen = async (who: Rep) =>
      (await listMessages(db(), { viewer: viewer(who) })).messages.map((m) => m.contactId ?? m.phone);
    expect(new Set(await seen(repB))).toEqual(new Set([b.id, u.id, "+14155550199"]));
    expect(await seen(repB)).toHaveLength(6);
    expect((await seen(repA)).filter((x) => x === b.id)).toEqual([]);
    expect(await listMessages(db(), { viewer: SEES_ALL })).toMatchObject({ nextCursor: null });
    expect((await listMessages(db(), { viewer: SEES_ALL })).messages).toHaveLength(8);

    expect(await visibleTabCounts(db(), viewer(repB))).toEqual({
      all: { n: 6, atLeast: false },
      incoming: { n: 0, atLeast: false },
      outgoing: { n: 6, atLeast: false },
      failed: { n: 1, atLeast: false },
    });
    expect((await visibleTabCounts(db(), viewer(repA))).all).toEqual({ n: 4, atLeast: false });
    expect((await visibleTabCounts(db(), SEES_ALL)).all).toEqual({ n: 8, atLeast: false });
    // A search never finds another rep's thread either (by text, and by the contact's name).
    const found = await listMessages(db(), { viewer: viewer(repA), q: "scoped" });
    expect(found.messages.some((m) => m.contactId === b.id)).toBe(false);
    const byName = await listMessages(db(), { viewer: viewer(repA), q: b.firstName });
    expect(byName.messages.some((m) => m.contactId === b.id)).toBe(false);

    // The API answers the key's (here the session's) owner the same way; the screen too.
    const cookie = await loginAs(repA);
    const res = await call("/api/messages?limit=100", { cookie });
    expect(res.status).toBe(200);
    const ids = ((await res.json()) as { contactId: number | null }[]).map((m) => m.contactId);
    expect(ids).not.toContain(b.id);
    expect(ids).toContain(a.id);
    const screen = await (await call("/messages", { cookie })).text();
    expect(screen).not.toContain(b.phone!);
    expect(screen).toContain(a.phone!);
    // Analytics' recent messages are the viewer's too (its figures stay the team's).
    const recent = (await getAnalytics(db(), {}, new Date(), 7, viewer(repA))).recent.map((r) => r.to);
    expect(recent).not.toContain(b.phone);
    expect(recent).toContain(a.phone);
    expect((await getAnalytics(db(), {}, new Date(), 7, SEES_ALL)).recent.map((r) => r.to)).toContain(b.phone);
  });

  it("pages through a window of the newest rows: a page may be short (even empty) and still lead on to older ones", async () => {
    const b = await ownedContact(repB);
    const a = await ownedContact(repA);
    await texts(3, { contactId: b.id, phone: b.phone! });
    await texts(SCOPED_WINDOW + 50, { contactId: a.id, phone: a.phone! });

    const first = await listMessages(db(), { viewer: viewer(repB) });
    expect(first.messages.filter((m) => m.contactId === b.id)).toEqual([]);
    expect(first.nextCursor).not.toBeNull();
    let cursor = first.nextCursor;
    const mine: number[] = [];
    for (let page = 0; cursor && page < 5; page++) {
      const next = await listMessages(db(), { viewer: viewer(repB), before: cursor });
      mine.push(...next.messages.filter((m) => m.contactId === b.id).map((m) => m.id));
      cursor = next.nextCursor;
    }
    expect(mine).toHaveLength(3);
    expect(cursor).toBeNull();
    // Over a busy tab the count is a lower bound ("n+").
    const counts = await visibleTabCounts(db(), viewer(repB));
    expect(counts.all.atLeast).toBe(true);
    expect(counts.failed.atLeast).toBe(false);
  });

  it("reads a bounded window, not the table (D1 rows_read)", async () => {
    const a = await ownedContact(repA);
    await texts(10 * SCOPED_WINDOW, { contactId: a.id, phone: a.phone! });
    const restore = recordD1(env.DB);
    try {
      const page = await measureD1(() => listMessages(db(), { viewer: viewer(repB) }));
      const counts = await measureD1(() => visibleTabCounts(db(), viewer(repB)));
      // The window (its rows, their contacts by key, and where it ends) — the table holds ten windows.
      expect(page.read).toBeLessThan(4 * SCOPED_WINDOW);
      expect(counts.read).toBeLessThan(4 * 3 * SCOPED_WINDOW);
      const everyone = await measureD1(() => listMessages(db(), { viewer: SEES_ALL }));
      expect(everyone.read).toBeLessThan(500);
    } finally {
      restore();
    }
  });
});
