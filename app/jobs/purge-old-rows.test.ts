import { env } from "cloudflare:test";
import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { createTestUser, db } from "../../tests/factories";
import { purgeOldRows, purgeOlderThan, RETENTION } from "./purge-old-rows.server";

const DAY = 86_400_000;

async function seed(table: string, userId: number, at: number, tag: string) {
  switch (table) {
    case "login_history":
      return db().run(sql`INSERT INTO login_history (email, success, created_at) VALUES (${tag}, 0, ${at})`);
    case "chat_messages":
      return db().run(
        sql`INSERT INTO chat_messages (user_id, role, content, created_at) VALUES (${userId}, 'user', ${tag}, ${at})`,
      );
    case "alerts":
      return db().run(
        sql`INSERT INTO alerts (content, priority, category, created_at) VALUES (${tag}, 'high', 'objection', ${at})`,
      );
    case "ai_classifications":
      return db().run(
        sql`INSERT INTO ai_classifications (text_preview, intent, sentiment, confidence, provider, analysis_ms, created_at) VALUES (${tag}, 'other', 'neutral', 50, 'offline', 1, ${at})`,
      );
    case "lead_idempotency": {
      const key = await db().get<{ id: number }>(
        sql`INSERT INTO api_keys (user_id, name, prefix, key_hash, scopes, created_at) VALUES (${userId}, 'Purge', 'helio_purge', ${crypto.randomUUID()}, '["leads"]', ${at}) RETURNING id`,
      );
      return db().run(
        sql`INSERT INTO lead_idempotency (api_key_id, idempotency_key, request_hash, status, response, created_at) VALUES (${key!.id}, ${tag}, 'h', 201, '{}', ${at})`,
      );
    }
    case "webhook_deliveries": {
      const sub = await db().get<{ id: number }>(
        sql`INSERT INTO webhook_subscriptions (url, secret, enabled, created_at, updated_at) VALUES ('https://example.com/h', 'whsec_x', 0, ${at}, ${at}) RETURNING id`,
      );
      return db().run(
        sql`INSERT INTO webhook_deliveries (subscription_id, event_id, event_type, payload, created_at) VALUES (${sub!.id}, ${tag}, 'lead.created', '{}', ${at})`,
      );
    }
  }
}
const column: Record<string, string> = {
  login_history: "email",
  chat_messages: "content",
  alerts: "content",
  ai_classifications: "text_preview",
  webhook_deliveries: "event_id",
  lead_idempotency: "idempotency_key",
};
const left = (table: string, tag: string) =>
  db().get<{ n: number }>(sql`SELECT count(*) AS n FROM ${sql.raw(table)} WHERE ${sql.raw(column[table])} = ${tag}`);

describe("retention of append-only tables (issue 23, decision 022)", () => {
  it("purges rows past each table's retention in bounded chunks and keeps newer ones", async () => {
    const user = await createTestUser();
    // Long ago, so no other test file's rows (written at their own, later, times) are due: they stay.
    const now = new Date(Date.UTC(2000, 0, 1));
    for (const { table, days } of RETENTION) {
      const tag = `${table}-${crypto.randomUUID()}`;
      for (let i = 0; i < 3; i++) await seed(table, user.id, now.getTime() - (days + 1 + i) * DAY, `${tag}-old`);
      await seed(table, user.id, now.getTime() - (days - 1) * DAY, `${tag}-new`);
      // One chunk of 2, then the rest: a tick never removes more than its chunk.
      expect((await purgeOlderThan(db(), table, days, now, 2)).length, table).toBe(2);
      expect((await left(table, `${tag}-old`))!.n, table).toBe(1);
      await purgeOldRows(db(), now);
      expect((await left(table, `${tag}-old`))!.n, table).toBe(0);
      expect((await left(table, `${tag}-new`))!.n, table).toBe(1);
    }
  });

  it("reads only the due rows, through an index on created_at (the purge's own statement)", async () => {
    for (const { table, days } of RETENTION) {
      const q = purgeOlderThan(db(), table, days, new Date()).toSQL();
      const plan = await env.DB.prepare(`EXPLAIN QUERY PLAN ${q.sql}`)
        .bind(...q.params)
        .all<{ detail: string }>();
      const detail = plan.results.map((r) => r.detail).join("\n");
      expect(detail, table).toMatch(new RegExp(`SEARCH ${table} USING (COVERING )?INDEX ${table}_created_at_idx`));
      expect(detail, table).not.toMatch(new RegExp(`SCAN ${table}\\b`));
    }
  });
});
