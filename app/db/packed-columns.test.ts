// packedColumns (decision 080): several columns as one json_array value, decoded by each column's own decoder —
// against the real D1, compared with what drizzle's own select of the same columns returns.
import { eq, sql } from "drizzle-orm";
import { alias } from "drizzle-orm/sqlite-core";
import { describe, expect, it } from "vitest";
import { createTestContact } from "../../tests/contact-factory";
import { createTestUser, db } from "../../tests/factories";
import { runBatch } from "./client.server";
import { MAX_FUNCTION_ARGS, orNull, packedColumns } from "./packed-columns.server";
import { contacts, users } from "./schema";

describe("packedColumns", () => {
  it("gives back exactly what a plain select gives: dates, booleans, nulls, expressions, a LEFT JOIN's missing row", async () => {
    const user = await createTestUser();
    const contact = await createTestContact(user.id, { firstName: 'Zoë "Z" O\'Neil', customFields: { roof: "tile" } });
    await db()
      .update(contacts)
      .set({ optedOutAt: new Date("2026-05-01T12:34:56.789Z"), sendable: false, unsendableReason: "Landline" })
      .where(eq(contacts.id, contact.id));
    const nobody = alias(users, "nobody");
    const fields = {
      id: contacts.id,
      firstName: contacts.firstName,
      customFields: contacts.customFields,
      optedOutAt: contacts.optedOutAt,
      createdAt: contacts.createdAt,
      sendable: contacts.sendable,
      unsendableReason: contacts.unsendableReason,
      email: contacts.email,
      twice: sql<number>`${contacts.id} * 2`.mapWith(Number),
      exists: sql<boolean>`EXISTS (SELECT 1 FROM ${users} u WHERE u.id = ${user.id})`.mapWith((v) => Boolean(v)),
    };
    const joined = { nobodyEmail: orNull(nobody.email), nobodyCreatedAt: orNull(nobody.createdAt) };
    const plain = await db()
      .select({ ...fields, ...joined })
      .from(contacts)
      .leftJoin(nobody, eq(nobody.id, -1))
      .where(eq(contacts.id, contact.id));
    const [packed] = (await runBatch(db(), [
      db()
        .select({ row: packedColumns("row", { ...fields, ...joined }) })
        .from(contacts)
        .leftJoin(nobody, eq(nobody.id, -1))
        .where(eq(contacts.id, contact.id)),
    ])) as { row: Record<string, unknown> }[][];
    expect(packed).toHaveLength(1);
    expect(packed[0].row).toEqual(plain[0]);
    expect(packed[0].row.optedOutAt).toBeInstanceOf(Date);
    expect(packed[0].row.sendable).toBe(false);
    expect(packed[0].row).toMatchObject({ nobodyEmail: null, nobodyCreatedAt: null });
  });

  it("nests more than 32 values (D1's cap on a function's arguments) and keeps their order", async () => {
    const user = await createTestUser();
    const contact = await createTestContact(user.id, { firstName: "Nested" });
    const many = Object.fromEntries(
      Array.from({ length: 70 }, (_, i) => [`v${i}`, sql<number>`${contacts.id} + ${i}`.mapWith(Number)]),
    );
    const query = db()
      .select({ many: packedColumns("many", many) })
      .from(contacts)
      .where(eq(contacts.id, contact.id));
    // Every json_array call of the statement takes at most 32 arguments.
    const text = query.toSQL().sql;
    for (const call of text.matchAll(/json_array\(/g)) {
      let depth = 0;
      let args = 1;
      for (let i = call.index! + "json_array(".length; i < text.length; i++) {
        const ch = text[i];
        if (ch === "(") depth++;
        else if (ch === ")" && depth-- === 0) break;
        else if (ch === "," && depth === 0) args++;
      }
      expect(args).toBeLessThanOrEqual(MAX_FUNCTION_ARGS);
    }
    const [row] = await query;
    expect(Object.keys(row.many)).toEqual(Array.from({ length: 70 }, (_, i) => `v${i}`));
    expect(Object.values(row.many)).toEqual(Array.from({ length: 70 }, (_, i) => contact.id + i));
  });
});
