import fc from "fast-check";
import { sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { call, createTestUser, db, loginAs } from "../../tests/factories";
import { createTestContact, uniquePhone } from "../../tests/contact-factory";
import { likeContains, searchText } from "./search-text";

// Every place a user's search text reaches SQL. Add new search screens/APIs here.
const SEARCH_ENTRY_POINTS = ["/api/contacts", "/api/messages", "/contacts", "/messages", "/contacts/download"] as const;

// Strings that have broken search parsers before: control characters (NUL made D1 answer "unterminated string"),
// LIKE and FTS5 metacharacters, quotes, lone surrogates and long runs.
const nasty = fc.oneof(
  fc.string({ unit: "binary", maxLength: 40 }),
  fc.string({
    unit: fc.constantFrom(
      "\0",
      "\u0001",
      "\u001f",
      "\u007f",
      "\u0085",
      "\ud800",
      "%",
      "_",
      "\\",
      '"',
      "'",
      "*",
      "(",
      ")",
      ":",
      "^",
      "-",
      "+",
      "NEAR",
      " OR ",
      " AND ",
      "NOT",
      "a",
      "b",
      "1",
      " ",
      "\t",
      "\n",
    ),
    maxLength: 30,
  }),
  fc.constantFrom("ab\0c", "\0", "%", "_", "\\", '"', "abc\0def\0ghi", "a".repeat(500)),
);

describe("search text never breaks SQL (issue 9 #3)", () => {
  let cookie = "";
  beforeAll(async () => {
    cookie = await loginAs(await createTestUser());
  });

  it.each(SEARCH_ENTRY_POINTS)("%s with a NUL byte in q answers without a server error", async (path) => {
    const res = await call(`${path}?q=ab%00c`, { cookie });
    expect(res.status).toBeLessThan(500);
  });

  it.each(SEARCH_ENTRY_POINTS)("%s: no search string gives a 5xx (property)", async (path) => {
    await fc.assert(
      fc.asyncProperty(nasty, async (q) => {
        const res = await call(`${path}?${new URLSearchParams({ q })}`, { cookie });
        await res.arrayBuffer();
        return res.status < 500;
      }),
      { numRuns: 40 },
    );
  });

  it("searchText strips control characters and bounds the length", () => {
    expect(searchText("ab\0c")).toBe("abc");
    expect(searchText(" a\u0001b\tc\n ")).toBe("ab c");
    expect(searchText("x".repeat(1000)).length).toBeLessThanOrEqual(200);
    fc.assert(fc.property(fc.string({ unit: "binary" }), (s) => !/[\p{Cc}]/u.test(searchText(s))));
  });
});

describe("short message search escapes LIKE metacharacters (issue 9 #4)", () => {
  it("'%' and '_' match only themselves, as in the contacts search", async () => {
    const cookie = await loginAs(await createTestUser());
    const phone = uniquePhone();
    const t = Date.now();
    for (const content of ["save 50% today", "plain text here"]) {
      await db()
        .run(sql`INSERT INTO messages (channel, direction, kind, status, phone, content, idempotency_key, is_marketing, is_test, attempts, scheduled_at, created_at, updated_at)
        VALUES ('sms', 'inbound', 'inbound', 'received', ${phone}, ${content}, ${"like:" + crypto.randomUUID()}, 0, 0, 0, ${t}, ${t}, ${t})`);
    }
    const search = async (q: string) =>
      (
        (await (await call(`/api/messages?${new URLSearchParams({ q })}`, { cookie })).json()) as { content: string }[]
      ).map((m) => m.content);
    expect(await search("%")).toContain("save 50% today");
    expect(await search("%")).not.toContain("plain text here");
    expect(await search("_")).not.toContain("plain text here");
    expect(await search("_")).not.toContain("save 50% today");
    // The contacts search behaves the same (one shared helper).
    const c = await createTestContact((await createTestUser()).id, { company: "Acme_Solar" });
    const found = (await (await call(`/api/contacts?q=_`, { cookie })).json()) as
      | { contacts?: { id: number }[] }
      | { id: number }[];
    const ids = (Array.isArray(found) ? found : (found.contacts ?? [])).map((r) => r.id);
    expect(ids).toContain(c.id);
  });

  it("likeContains escapes %, _ and the escape character", () => {
    expect(likeContains("50%_a\\b")).toBe("%50\\%\\_a\\\\b%");
  });
});
