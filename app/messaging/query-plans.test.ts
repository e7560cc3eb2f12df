import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";

// The pipeline's per-batch statements find rows by id and then check their status. SQLite would rather
// use the (status, …) index, which with a 10k backlog scans every queued row per batch (the broadcast
// benchmark measured 187 ms per claim). The unary `+` on status keeps these on the primary key.
const plan = async (q: string) =>
  (await env.DB.prepare(`EXPLAIN QUERY PLAN ${q}`).bind("[1,2,3]").all<{ detail: string }>()).results.map((r) => r.detail).join(" | ");

describe("query plans of the send pipeline's batch statements", () => {
  it("the consumer's read, claim and record use the primary key, not the status index", async () => {
    for (const q of [
      `SELECT m.id FROM messages m WHERE m.id IN (SELECT value FROM json_each(?)) AND +m.status = 'queued'`,
      `UPDATE messages SET status = 'sending' FROM json_each(?) AS j WHERE messages.id = json_extract(j.value,'$.id') AND +messages.status = 'queued'`,
      `UPDATE messages SET status = 'queued' WHERE id IN (SELECT value FROM json_each(?)) AND +status = 'pending' AND scheduled_at <= 0`,
    ]) {
      const p = await plan(q);
      expect(p, q).toMatch(/INTEGER PRIMARY KEY/);
      expect(p, q).not.toMatch(/messages_(due|status_created_at)_idx/);
    }
  });

  it("without the + the planner picks the status index (why the + is there)", async () => {
    const p = await plan(`SELECT m.id FROM messages m WHERE m.id IN (SELECT value FROM json_each(?)) AND m.status = 'queued'`);
    expect(p).toMatch(/messages_(due|status_created_at)_idx/);
  });
});
