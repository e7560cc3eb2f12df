// The Match columns step's domain (issue 24, decision 024): raw rows staged, matched into contacts once, the
// mapping remembered per header set and bounded.
import { eq, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { contactImportRows, contactImports, importColumnMaps } from "~/db/schema";
import { uniquePhone, uniqueTag } from "../../tests/contact-factory";
import { createTestUser, db } from "../../tests/factories";
import { NO_PHONE_COLUMN } from "./column-aliases";
import {
  COLUMNS_ALREADY_MATCHED,
  headerHash,
  loadColumnMatch,
  matchImportColumns,
  REMEMBERED_HEADER_SETS,
} from "./match-import-columns.server";
import { stageCsvForMatching } from "./stage-contact-import.server";

const at = (ms: number) => new Date(Date.UTC(2026, 10, 26) + ms);

describe("matchImportColumns", () => {
  it("stages raw rows, refuses a mapping without a phone, turns them into contacts once (a second submission changes nothing)", async () => {
    const u = await createTestUser();
    const tag = uniqueTag("Mx");
    const [p1, p2] = [uniquePhone(), uniquePhone()];
    // Headers no alias knows: the person assigns them.
    const text = `Col A ${tag},Col B,Col C,Col D\nAna,Lee,${p1},x\nBo,Diaz,${p2},y\nNo,Phone,,z\n`;
    const imp = await stageCsvForMatching(db(), { name: "odd.csv", text }, { userId: u.id }, at(0));
    expect(imp.status).toBe("mapping");
    const view = await loadColumnMatch(db(), imp.id);
    expect(view.noPhone).toBe(true);
    expect(view.columns.map((c) => [c.name, c.target, c.samples])).toEqual([
      [`Col A ${tag}`, null, ["Ana", "Bo", "No"]],
      ["Col B", null, ["Lee", "Diaz", "Phone"]],
      ["Col C", null, [p1, p2]],
      ["Col D", null, ["x", "y", "z"]],
    ]);

    await expect(
      matchImportColumns(db(), { id: imp.id, userId: u.id, columns: ["firstName", "lastName", "", "company"] }, at(1)),
    ).rejects.toMatchObject({
      code: "validation",
      message: NO_PHONE_COLUMN,
    });
    await matchImportColumns(
      db(),
      { id: imp.id, userId: u.id, columns: ["firstName", "lastName", "phone", ""] },
      at(2),
    );
    const staged = await db().select().from(contactImports).where(eq(contactImports.id, imp.id)).get();
    expect(staged).toMatchObject({
      status: "staged",
      totalRows: 3,
      validRows: 2,
      rejectedRows: 1,
      errors: ["Row 4: Phone number is required"],
    });
    const rows = await db()
      .select()
      .from(contactImportRows)
      .where(eq(contactImportRows.importId, imp.id))
      .orderBy(contactImportRows.id);
    expect(rows.map((r) => [r.rowNumber, JSON.parse(r.data).phone, JSON.parse(r.data).company])).toEqual([
      [2, p1, null],
      [3, p2, null],
    ]);

    await expect(
      matchImportColumns(db(), { id: imp.id, userId: u.id, columns: ["firstName", "lastName", "phone", ""] }, at(3)),
    ).rejects.toMatchObject({
      code: "conflict",
      message: COLUMNS_ALREADY_MATCHED,
    });
    expect(await db().select().from(contactImportRows).where(eq(contactImportRows.importId, imp.id))).toHaveLength(2);
    // Someone else's import is not found.
    const other = await createTestUser();
    await expect(matchImportColumns(db(), { id: imp.id, userId: other.id, columns: [] }, at(4))).rejects.toMatchObject({
      code: "not_found",
    });
  });

  it("remembers the mapping per normalised header set, pre-selects it, and keeps only the most recent header sets", async () => {
    const u = await createTestUser();
    const tag = uniqueTag("Rm");
    const base = Date.now(); // later than any header set other tests remembered
    const upload = async (header: string) => {
      const imp = await stageCsvForMatching(
        db(),
        { name: "a.csv", text: `${header}\nAna,Lee,${uniquePhone()},Albany\n` },
        { userId: u.id },
        at(0),
      );
      return imp.id;
    };
    const header = `Given,Family,Cell ${tag},Town`;
    const first = await upload(header);
    expect((await loadColumnMatch(db(), first)).remembered).toBe(false);
    await matchImportColumns(
      db(),
      { id: first, userId: u.id, columns: ["firstName", "lastName", "phone", ""] },
      new Date(base),
    );

    // The same headers in another case and spacing: remembered (Town stays ignored).
    const second = await upload(`GIVEN, family ,cell_${tag.toLowerCase()},TOWN`);
    const view = await loadColumnMatch(db(), second);
    expect(view.remembered).toBe(true);
    expect(view.columns.map((c) => c.target)).toEqual(["firstName", "lastName", "phone", null]);
    expect(await headerHash(["GIVEN", "family"])).toBe(await headerHash(["Given", "Family"]));

    // REMEMBERED_HEADER_SETS newer header sets push it out; the table never holds more.
    for (let i = 0; i < REMEMBERED_HEADER_SETS; i++) {
      const id = await upload(`Given,Family,Cell ${tag} ${i},Town`);
      await matchImportColumns(
        db(),
        { id, userId: u.id, columns: ["firstName", "lastName", "phone", "city"] },
        new Date(base + 1 + i),
      );
    }
    expect((await db().get<{ n: number }>(sql`SELECT count(*) AS n FROM import_column_maps`))!.n).toBe(
      REMEMBERED_HEADER_SETS,
    );
    expect(
      await db()
        .select()
        .from(importColumnMaps)
        .where(eq(importColumnMaps.headerHash, await headerHash(header.split(",")))),
    ).toHaveLength(0);
    expect((await loadColumnMatch(db(), second)).remembered).toBe(false);
  });
});
