// npm run db:backup / db:restore (issue 22, decision 017): a local database with rows in many tables, FTS5 indexes
// included, is backed up, restored into an empty folder, and every row, the schema and search are as they were.
import { createHash } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { gunzipSync, gzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { backupDatabase, readBackup, restoreDatabase } from "./lib/backup.mjs";
import { migrate, openD1 } from "./lib/d1.mjs";

const dir = mkdtempSync(join(tmpdir(), "helio-backup-test-"));
const src = join(dir, "src");
const file = join(dir, "backup.ndjson.gz");

// Triggers run as the app would run them: conversations, counters, search entries and compliance events are written
// by the inserts below, not by hand. Contact 7's custom fields hold ~280 KB, more than one D1 statement may.
const SEED = `
INSERT INTO users (id, email, password_hash, first_name, last_name, role, is_active, created_at, updated_at)
  VALUES (1, 'ann@helio.test', 'pbkdf2$x', 'Ann', 'Lee', 'superuser', 1, 1, 1), (2, 'bo@helio.test', 'pbkdf2$y', 'Bo', 'Ng', 'user', 1, 2, 2);
INSERT INTO sessions (id, user_id, created_at, last_seen_at, expires_at) VALUES ('s-one', 1, 10, 10, 99999999999999), ('s-two', 2, 11, 11, 99999999999999);
INSERT INTO contacts (first_name, last_name, phone, email, company, custom_fields, created_by, created_at, updated_at)
  WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 300)
  SELECT 'First' || i, 'Zyxwvut' || i, '+1602555' || printf('%04d', i), 'c' || i || '@example.com', 'Sunny ''Co''', NULL, 1, 100 + i, 100 + i FROM n;
UPDATE contacts SET custom_fields = json_object('notes', replace(hex(zeroblob(40000)), '00', 'é😀''')), updated_at = 500 WHERE id = 7;
INSERT INTO campaigns (id, name, status, created_by, created_at, updated_at) VALUES (1, 'Spring', 'running', 1, 20, 20);
INSERT INTO campaign_steps (campaign_id, step_number, position, name, message_type, content, created_at, updated_at) VALUES (1, 1, 1, 'Intro', 'sms', 'Hi {{firstName}}', 21, 21);
INSERT INTO campaign_enrollments (campaign_id, contact_id, status, created_at, updated_at) SELECT 1, id, 'active', 30, 30 FROM contacts WHERE id <= 40;
INSERT INTO messages (channel, direction, kind, status, contact_id, campaign_id, phone, content, idempotency_key, is_marketing, created_at, updated_at)
  WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 2500)
  SELECT 'sms', CASE WHEN i % 5 = 0 THEN 'inbound' ELSE 'outbound' END, CASE WHEN i % 5 = 0 THEN 'inbound' ELSE 'campaign' END,
    CASE WHEN i % 5 = 0 THEN 'received' WHEN i % 7 = 0 THEN 'failed' ELSE 'delivered' END, 1 + i % 300, 1,
    '+1602555' || printf('%04d', 1 + i % 300), 'Solar savings message ' || i || ' for your roof', 'seed:' || i, 1, 1000 + i * 60000, 1000 + i * 60000 FROM n;
INSERT INTO messages (channel, direction, kind, status, contact_id, phone, content, idempotency_key, created_at, updated_at)
  VALUES ('sms', 'inbound', 'inbound', 'received', 3, '+16025550003', 'STOP please, quasarwidget', 'seed:stop', 200000000, 200000000);
UPDATE contacts SET opted_out_at = 200000001, opted_out_source = 'STOP keyword', updated_at = 200000001 WHERE id = 3;
INSERT INTO suppressions (channel, address, reason, source, created_at) VALUES ('sms', '+15005550000', 'opt_out', 'STOP keyword', 300);
INSERT INTO templates (name, type, content, created_by, created_at, updated_at) VALUES ('A', 'sms', 'one', 1, 1, 1), ('B', 'sms', 'two', 1, 2, 2), ('C', 'sms', 'three', 1, 3, 3);
DELETE FROM templates WHERE name = 'C';
DELETE FROM messages WHERE idempotency_key = 'seed:2500';
INSERT INTO org_settings (key, value, updated_at) VALUES ('company', 'Helio Solar', 5), ('website', 'https://helio.example', 6);
INSERT INTO message_archives (key, month, first_id, last_id, rows, bytes, created_at) VALUES ('messages/2024-01/part-000000000001.ndjson.gz', '2024-01', 1, 9, 9, 512, 7);
INSERT INTO message_archive_months (month, parts, rows, bytes, updated_at) VALUES ('2024-01', 1, 9, 512, 7);
UPDATE message_archive_state SET cursor_at = 123, cursor_id = 4, lap_day = '2026-11-26' WHERE id = 1;
INSERT INTO system_status (key, value, updated_at) VALUES ('cron_tick', '{"ran":9}', 8);
`;

/** Every table except SQLite's, D1's and the FTS shadow tables: row count and a hash of its rows (hidden rowids too). */
async function snapshot(persistTo) {
  const d1 = await openD1({ persistTo });
  try {
    const [schema, sequences] = await d1.batch([
      `SELECT type, name, tbl_name, sql FROM sqlite_master WHERE name NOT LIKE 'sqlite_%' AND name NOT LIKE '\\_cf\\_%' ESCAPE '\\' ORDER BY type, name`,
      `SELECT name, seq FROM sqlite_sequence ORDER BY name`,
    ]);
    const tables = schema
      .filter((o) => o.type === "table" && !/_fts(_|$)/.test(o.name) && o.name !== "d1_migrations")
      .map((o) => o.name);
    const rows = await d1.batch(
      tables.map(
        (t) =>
          `SELECT ${/WITHOUT ROWID/i.test(schema.find((o) => o.name === t).sql) ? "" : "rowid AS _r, "}* FROM "${t}"`,
      ),
    );
    const tablesOut = Object.fromEntries(
      tables.map((t, i) => [
        t,
        {
          count: rows[i].length,
          sha256: createHash("sha256")
            .update(
              rows[i]
                .map((r) => JSON.stringify(r))
                .sort()
                .join("\n"),
            )
            .digest("hex"),
        },
      ]),
    );
    const [migrations] = await d1.batch([`SELECT name FROM d1_migrations ORDER BY id`]);
    return { schema, sequences, tables: tablesOut, migrations: migrations.map((m) => m.name) };
  } finally {
    await d1.close();
  }
}

async function search(persistTo) {
  const d1 = await openD1({ persistTo });
  try {
    const [messages, contacts, counts] = await d1.batch([
      `SELECT rowid AS id FROM messages_fts WHERE messages_fts MATCH '"quasarwidget"'`,
      `SELECT rowid AS id FROM contacts_fts WHERE contacts_fts MATCH '"Zyxwvut123"'`,
      `SELECT n FROM message_counts WHERE direction = 'inbound' AND status = 'received'`,
    ]);
    return { messages: messages.map((r) => r.id), contacts: contacts.map((r) => r.id), received: counts[0].n };
  } finally {
    await d1.close();
  }
}

let before;
beforeAll(async () => {
  migrate({ persistTo: src });
  const d1 = await openD1({ persistTo: src });
  try {
    await d1.execute(SEED.split(";\n"));
  } finally {
    await d1.close();
  }
  before = await snapshot(src);
}, 120_000);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("db:backup and db:restore", () => {
  it("the seeded database has what the test means to carry: many tables, FTS content, a value over 100 KB", async () => {
    const filled = Object.entries(before.tables)
      .filter(([, t]) => t.count > 0)
      .map(([name]) => name);
    expect(filled).toEqual(
      expect.arrayContaining([
        "users",
        "sessions",
        "contacts",
        "campaigns",
        "campaign_enrollments",
        "messages",
        "conversations",
        "message_daily_counts",
        "compliance_events",
        "org_settings",
        "message_archives",
        "templates",
      ]),
    );
    expect(before.tables.messages.count).toBe(2500);
    expect((await search(src)).messages).toHaveLength(1);
  });

  it("restores a backup into an empty database with every row, the same schema and sequences, and working search", async () => {
    const d1 = await openD1({ persistTo: src });
    let rows;
    try {
      rows = await backupDatabase(d1, file, { pageRows: 400 });
    } finally {
      await d1.close();
    }
    expect(rows.messages).toBe(2500);
    // The FTS5 tables and their shadow tables are not in it (the restore rebuilds them), every other table is.
    const header = JSON.parse(gunzipSync(readFileSync(file)).toString("utf8").split("\n")[0]);
    expect(header.tables.map((t) => t.name).sort()).toEqual(Object.keys(before.tables).sort());
    expect(header.fts).toEqual(["contacts_fts", "messages_fts"]);

    // Through `wrangler d1 execute` (--command and --file), the way --remote runs, into a folder of its own.
    const dst = join(dir, "dst");
    const target = await openD1({ persistTo: dst, viaWrangler: true });
    let result;
    try {
      result = await restoreDatabase(target, file);
    } finally {
      await target.close();
    }
    expect(result.newerMigrations).toEqual([]);
    const after = await snapshot(dst);
    expect(after.tables).toEqual(before.tables);
    expect(after.schema).toEqual(before.schema);
    expect(after.sequences).toEqual(before.sequences);
    expect(after.migrations).toEqual(before.migrations);
    expect(await search(dst)).toEqual(await search(src));

    // The triggers are back: a new message counts, is searchable and takes the id the original would have given.
    const insert = `INSERT INTO messages (channel, direction, kind, status, phone, content, idempotency_key, created_at, updated_at)
      VALUES ('sms', 'inbound', 'inbound', 'received', '+16025550009', 'new zorblatt reply', 'after:1', 9, 9) RETURNING id`;
    const ids = [];
    for (const persistTo of [src, dst]) {
      const db = await openD1({ persistTo });
      try {
        const [[row], [found]] = await db.batch([
          insert,
          `SELECT rowid AS id FROM messages_fts WHERE messages_fts MATCH '"zorblatt"'`,
        ]);
        expect(found.id).toBe(row.id);
        ids.push(row.id);
      } finally {
        await db.close();
      }
    }
    expect(ids[1]).toBe(ids[0]);
    expect(await search(dst)).toEqual(await search(src));
  }, 180_000);

  it("refuses a cut-off file and a database that is not empty, before writing anything", async () => {
    const lines = gunzipSync(readFileSync(file)).toString("utf8").trim().split("\n");
    const cut = join(dir, "cut.ndjson.gz");
    writeFileSync(cut, gzipSync(lines.slice(0, -1).join("\n") + "\n"));
    await expect(async () => {
      for await (const _ of readBackup(cut));
    }).rejects.toThrow(/incomplete/);
    const empty = join(dir, "empty");
    const d1 = await openD1({ persistTo: empty });
    try {
      await expect(restoreDatabase(d1, cut)).rejects.toThrow(/incomplete/);
      const [tables] = await d1.batch([
        `SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE '\\_cf\\_%' ESCAPE '\\'`,
      ]);
      expect(tables).toEqual([]);
    } finally {
      await d1.close();
    }
    const used = await openD1({ persistTo: src });
    try {
      await expect(restoreDatabase(used, file)).rejects.toThrow(/is not empty/);
    } finally {
      await used.close();
    }
  }, 60_000);
});
