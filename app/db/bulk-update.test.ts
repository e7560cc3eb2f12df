// The json_each helpers of decision 031: any number of values or rows in one bound parameter, columns named by the
// schema. Against the real D1 (it caps bound parameters at 100).
import { eq, sql, type SQL } from "drizzle-orm";
import { SQLiteSyncDialect } from "drizzle-orm/sqlite-core";
import { describe, expect, it } from "vitest";
import { uniqueTag } from "../../tests/contact-factory";
import { db } from "../../tests/factories";
import { bulkInsertSql, bulkInsertStatements, inJson, sharedFields } from "./bulk-update.server";
import { runBatch } from "./client.server";
import { importColumnMaps } from "./schema";

describe("bulkInsertSql / inJson", () => {
  it("inserts 300 rows in one statement, skips conflicts, returns what it wrote, and reads them back by a 300-value list", async () => {
    const tag = uniqueTag("Bulk");
    const rows = Array.from({ length: 300 }, (_, i) => ({
      hash: `${tag}-${i}`,
      cols: JSON.stringify([`c${i}`, null]),
    }));
    const insert = (rs: typeof rows) =>
      bulkInsertSql(importColumnMaps, rs, (j) => ({
        values: { headerHash: j.hash, columns: j.cols, usedAt: 1_000 },
        onConflict: sql`ON CONFLICT (${importColumnMaps.headerHash}) DO NOTHING`,
        returning: sql`${importColumnMaps.headerHash}`,
      }));
    const first = await db().all<{ header_hash: string }>(insert(rows));
    expect(first).toHaveLength(300);
    // The first 10 again plus 5 new: only the new ones are written.
    const more = [
      ...rows.slice(0, 10),
      ...Array.from({ length: 5 }, (_, i) => ({ hash: `${tag}-new-${i}`, cols: "[]" })),
    ];
    expect(await db().all(insert(more))).toHaveLength(5);

    const hashes = [...rows, ...more].map((r) => r.hash);
    const back = await db().select().from(importColumnMaps).where(inJson(importColumnMaps.headerHash, hashes));
    expect(back).toHaveLength(305);
    expect(back.find((r) => r.headerHash === `${tag}-7`)).toEqual({
      headerHash: `${tag}-7`,
      columns: ["c7", null],
      usedAt: new Date(1_000),
    });
    await db().delete(importColumnMaps).where(inJson(importColumnMaps.headerHash, hashes));
  });

  it("bulkInsertStatements splits rows by bytes into statements for one batch, and a WHERE guard leaves rows out", async () => {
    const tag = uniqueTag("Chunk");
    const rows = Array.from({ length: 40 }, (_, i) => ({ hash: `${tag}-${i}`, keep: i % 2 }));
    const statements = bulkInsertStatements(
      importColumnMaps,
      rows,
      (j) => ({ values: { headerHash: j.hash, columns: sql`'[]'`, usedAt: 2_000 }, where: sql`${j.keep} = 1` }),
      { maxRows: 15 },
    );
    expect(statements).toHaveLength(3);
    await runBatch(
      db(),
      statements.map((q) => db().run(q)),
    );
    const written = await db()
      .select({ h: importColumnMaps.headerHash })
      .from(importColumnMaps)
      .where(
        inJson(
          importColumnMaps.headerHash,
          rows.map((r) => r.hash),
        ),
      );
    expect(written.map((r) => r.h).sort()).toEqual(
      rows
        .filter((r) => r.keep)
        .map((r) => r.hash)
        .sort(),
    );
    await db()
      .delete(importColumnMaps)
      .where(eq(importColumnMaps.usedAt, new Date(2_000)));
  });

  it("refuses a key that is not a column of the table", () => {
    expect(() =>
      // @ts-expect-error: not a column — the point of the helper
      bulkInsertSql(importColumnMaps, [{ a: 1 }], (j) => ({ values: { headerHsh: j.a } })),
    ).toThrow(/headerHsh is not a column/);
  });
});

describe("values every row shares (decision 083)", () => {
  it("are bound once, and store and compare exactly as the per-row JSON does: integers stay INTEGER, text TEXT, null NULL", async () => {
    const tag = uniqueTag("Shared");
    // Two tables' worth of shapes through one: usedAt (integer), columns (text), a guard comparing an integer.
    const rows = (n: number, usedAt: number, keep: number) =>
      Array.from({ length: n }, (_, i) => ({ hash: `${tag}-${n}-${i}`, cols: "[1]", usedAt, keep, none: null }));
    const insert = (rs: ReturnType<typeof rows>) =>
      bulkInsertStatements(importColumnMaps, rs, (j) => ({
        values: { headerHash: j.hash, columns: sql`coalesce(${j.none}, ${j.cols})`, usedAt: j.usedAt },
        where: sql`${j.keep} = 1 AND typeof(${j.keep}) = 'integer'`,
      }));
    const shared = insert(rows(3, 5_000, 1));
    const alone = insert(rows(1, 5_000, 1));
    // Three rows share usedAt, cols, keep and none: each is one parameter, the JSON carries only the hashes.
    const query = (q: SQL) => new SQLiteSyncDialect().sqlToQuery(q);
    expect(query(shared[0]).sql).not.toContain("'$.usedAt'");
    expect(query(shared[0]).params).toContain(JSON.stringify(rows(3, 5_000, 1).map((r) => ({ hash: r.hash }))));
    // One row: nothing is shared, as before.
    expect(query(alone[0]).sql).toContain("'$.usedAt'");
    await runBatch(
      db(),
      [...shared, ...alone].map((q) => db().run(q)),
    );
    const back = await db().all<{ h: string; t: string; c: string; u: number }>(
      sql`SELECT header_hash AS h, typeof(used_at) AS t, columns AS c, used_at AS u FROM ${importColumnMaps}
        WHERE header_hash LIKE ${`${tag}-%`} ORDER BY header_hash`,
    );
    expect(back).toEqual(
      [...rows(1, 5_000, 1), ...rows(3, 5_000, 1)].map((r) => ({ h: r.hash, t: "integer", c: "[1]", u: 5_000 })),
    );
    await db()
      .delete(importColumnMaps)
      .where(sql`${importColumnMaps.headerHash} LIKE ${`${tag}-%`}`);
  });

  it("sharedFields leaves out booleans, objects and values that differ, and counts a missing field as null", () => {
    const { shared, rows } = sharedFields([
      { a: 1, b: "x", c: true, d: [1], e: undefined, f: 1.5, g: 2 },
      { a: 1, b: "x", c: true, d: [1], f: 1.5, g: 3 },
    ]);
    expect([...shared]).toEqual([
      ["a", 1],
      ["b", "x"],
      ["e", null],
      ["f", 1.5],
    ]);
    expect(rows).toEqual([
      { c: true, d: [1], g: 2 },
      { c: true, d: [1], g: 3 },
    ]);
    expect(sharedFields([{ a: 1 }]).shared.size).toBe(0);
  });
});
