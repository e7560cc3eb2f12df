// The json_each helpers of decision 031: any number of values or rows in one bound parameter, columns named by the
// schema. Against the real D1 (it caps bound parameters at 100).
import { eq, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { uniqueTag } from "../../tests/contact-factory";
import { db } from "../../tests/factories";
import { bulkInsertSql, bulkInsertStatements, inJson } from "./bulk-update.server";
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
