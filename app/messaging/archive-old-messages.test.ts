// Message retention (issue 22, decision 017): old finished messages move to R2 as gzipped NDJSON and leave D1, in
// bounded chunks, keeping counters, analytics, compliance evidence and conversations; a superuser downloads them.
import { createScheduledController, env } from "cloudflare:test";
import { sql } from "drizzle-orm";
import { gunzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import worker from "../../workers/app";
import { exportConsentEvidence } from "~/analytics/export-consent-evidence.server";
import { getThread } from "~/conversations/get-conversation.server";
import { call, createTestUser, db, loginAs, SEES_ALL } from "../../tests/factories";
import { createTestContact, uniquePhone } from "../../tests/contact-factory";
import {
  ARCHIVE_LEASE_MS,
  archiveKey,
  archiveOldMessages,
  retentionCutoff,
  SCAN_SQL,
  type ArchiveBucket,
} from "./archive-old-messages.server";
import { listMessages } from "../message-center/list-messages.server";
import { saveOrgSettings } from "./org-settings.server";

type Row = Record<string, unknown> & { id: number; created_at: number; status: string };

// Far before anything other test files write, so the only old messages here are this file's.
const NOW = new Date("2017-03-15T12:00:00Z"); // 18 months earlier: 2015-09-15T12:00Z
const at = (iso: string) => new Date(iso).getTime();
// The scan's cursor only moves forward within a day; each scenario below inserts messages older than what the previous
// one read, so it runs on a day of its own (the first tick of a day starts from the oldest message again).
const day = (n: number) => new Date(NOW.getTime() + n * 86_400_000);

async function insertMessage(m: {
  at: string;
  status: string;
  direction?: "inbound" | "outbound";
  contactId?: number | null;
  phone?: string;
  content?: string;
}) {
  const t = at(m.at);
  const direction = m.direction ?? (m.status === "received" ? "inbound" : "outbound");
  const rows = await db().all<{ id: number }>(sql`
    INSERT INTO messages (channel, direction, kind, status, contact_id, phone, from_address, content, idempotency_key, created_at, updated_at)
    VALUES ('sms', ${direction}, ${direction === "inbound" ? "inbound" : "individual"}, ${m.status}, ${m.contactId ?? null}, ${m.phone ?? uniquePhone()},
      '+15125550100', ${m.content ?? `hello ${crypto.randomUUID().slice(0, 8)}`}, ${crypto.randomUUID()}, ${t}, ${t})
    RETURNING id`);
  return rows[0].id;
}

const gunzipText = (body: ArrayBuffer | Uint8Array) =>
  gunzipSync(body instanceof Uint8Array ? body : new Uint8Array(body)).toString("utf8");

const parseNdjson = (text: string) =>
  text
    .split("\n")
    .filter(Boolean)
    .map((l) => JSON.parse(l) as Row);

/** Every archived row in R2, object by object. */
async function archivedObjects() {
  const out: { key: string; rows: Row[] }[] = [];
  let cursor: string | undefined;
  do {
    const page = await env.ARCHIVE.list({ prefix: "messages/", cursor });
    for (const o of page.objects)
      out.push({ key: o.key, rows: parseNdjson(gunzipText(await (await env.ARCHIVE.get(o.key))!.arrayBuffer())) });
    cursor = page.truncated ? page.cursor : undefined;
  } while (cursor);
  return out;
}

const selectAll = (ids: number[]) =>
  db().all<Row>(
    sql`SELECT * FROM messages WHERE id IN (SELECT value FROM json_each(${JSON.stringify(ids)})) ORDER BY id`,
  );
// The dashboard's figures as a client reads them (GET /api/stats): the campaigns feature computes them from counters.
let statsCookie: string | undefined;
async function dashboardStats(): Promise<{
  messagesSent: number;
  delivered: number;
  responses: number;
  contacts: number;
}> {
  statsCookie ??= await loginAs(await createTestUser());
  return (await call("/api/stats", { cookie: statsCookie })).json();
}
const counters = async () => ({
  counts: await db().all(sql`SELECT direction, status, n FROM message_counts ORDER BY 1, 2`),
  daily: await db().all(sql`SELECT day, direction, status, n FROM message_daily_counts ORDER BY 1, 2, 3`),
  stats: await dashboardStats(),
});
const evidenceCsv = async (contactId: number) => new Response(exportConsentEvidence(db(), { contactId })).text();

async function archiveUntilDone(now: Date, chunk?: number) {
  let archived = 0;
  for (let i = 0; i < 100; i++) {
    const r = await archiveOldMessages(db(), env.ARCHIVE, now, { chunk });
    archived += r.archived;
    if (r.read === 0) return archived;
  }
  throw new Error("the archive never finished");
}

describe("message retention", () => {
  it("the cutoff is the retention in calendar months before now, UTC (a day the month lacks becomes its last)", () => {
    expect(new Date(retentionCutoff(NOW, 18)).toISOString()).toBe("2015-09-15T12:00:00.000Z");
    expect(new Date(retentionCutoff(new Date("2026-08-31T23:59:59.999Z"), 18)).toISOString()).toBe(
      "2025-02-28T23:59:59.999Z",
    );
    expect(new Date(retentionCutoff(new Date("2026-01-10T00:00:00Z"), 3)).toISOString()).toBe(
      "2025-10-10T00:00:00.000Z",
    );
    expect(archiveKey("2015-07", 42)).toBe("messages/2015-07/part-000000000042.ndjson.gz");
  });

  it("the scan walks messages_created_at_idx", async () => {
    const plan = await env.DB.prepare(`EXPLAIN QUERY PLAN ${SCAN_SQL}`).bind(0, 0, 1, 10).all<{ detail: string }>();
    expect(plan.results.map((r) => r.detail).join(" | ")).toMatch(/messages_created_at_idx/);
  });

  it("moves finished messages older than the retention to R2 by month and out of D1; counters, analytics, evidence and conversations stay", async () => {
    const user = await createTestUser();
    const contact = await createTestContact(user.id);
    const phone = contact.phone!;
    // The contact's history: an offer, their STOP (which opted them out), then newer traffic.
    const offer = await insertMessage({
      at: "2015-07-01T10:00:00Z",
      status: "delivered",
      contactId: contact.id,
      phone,
      content: "Solar offer oldtermalpha",
    });
    const stop = await insertMessage({
      at: "2015-07-02T10:00:00Z",
      status: "received",
      contactId: contact.id,
      phone,
      content: "STOP please",
    });
    await db().run(
      sql`UPDATE contacts SET opted_out_at = ${at("2015-07-02T10:00:01Z")}, opted_out_source = 'STOP keyword', updated_at = ${at("2015-07-02T10:00:01Z")} WHERE id = ${contact.id}`,
    );
    const old = [
      offer,
      stop,
      await insertMessage({ at: "2015-07-20T10:00:00Z", status: "failed" }),
      await insertMessage({ at: "2015-07-31T23:59:59Z", status: "sent" }),
      await insertMessage({ at: "2015-08-01T00:00:00Z", status: "undelivered" }),
      await insertMessage({ at: "2015-08-10T00:00:00Z", status: "skipped" }),
      await insertMessage({ at: "2015-09-15T11:59:59Z", status: "received" }),
    ];
    // Not finished (never archived, whatever their age) and not old enough.
    const unfinished = [
      await insertMessage({ at: "2015-07-05T00:00:00Z", status: "held" }),
      await insertMessage({ at: "2015-08-05T00:00:00Z", status: "pending" }),
    ];
    const recent = [
      await insertMessage({ at: "2015-09-15T12:00:00Z", status: "delivered" }),
      await insertMessage({
        at: "2016-12-01T00:00:00Z",
        status: "received",
        contactId: contact.id,
        phone,
        content: "Any news newtermbeta",
      }),
    ];
    const oldRows = await selectAll(old);
    const before = await counters();
    const evidenceBefore = await evidenceCsv(contact.id);
    expect(evidenceBefore).toContain("STOP please");
    const eventsBefore = await db().all(
      sql`SELECT id, at, day, kind, channel, contact_id, address, source, message_id FROM compliance_events ORDER BY id`,
    );
    expect((await listMessages(db(), { viewer: SEES_ALL, q: "oldtermalpha" })).messages.map((m) => m.id)).toEqual([
      offer,
    ]);

    // Two chunks of 3 (the second spans July and August), then the Worker's own cron handler finishes the rest.
    expect((await archiveOldMessages(db(), env.ARCHIVE, NOW, { chunk: 3 })).keys).toEqual([
      archiveKey("2015-07", offer),
    ]);
    expect((await archiveOldMessages(db(), env.ARCHIVE, NOW, { chunk: 3 })).keys).toEqual([
      archiveKey("2015-07", old[2]),
      archiveKey("2015-08", old[4]),
    ]);
    await worker.scheduled(createScheduledController({ cron: "* * * * *", scheduledTime: NOW }), env);
    expect(await archiveOldMessages(db(), env.ARCHIVE, NOW)).toMatchObject({ read: 0, archived: 0 });

    // Gone from D1; unfinished and recent messages untouched.
    expect(await selectAll(old)).toEqual([]);
    expect((await selectAll([...unfinished, ...recent])).map((r) => r.id)).toEqual([...unfinished, ...recent]);

    // In R2: each old row exactly once, as D1 held it, in the object of its month.
    const objects = await archivedObjects();
    const rows = objects.flatMap((o) => o.rows);
    expect(rows.map((r) => r.id).sort((a, b) => a - b)).toEqual(old);
    expect([...rows].sort((a, b) => a.id - b.id)).toEqual(oldRows);
    for (const o of objects)
      for (const r of o.rows)
        expect(o.key.startsWith(`messages/${new Date(r.created_at).toISOString().slice(0, 7)}/part-`)).toBe(true);
    const recorded = await db().all<{ key: string; month: string; rows: number; bytes: number }>(
      sql`SELECT key, month, rows, bytes FROM message_archives ORDER BY key`,
    );
    expect(recorded.map((r) => r.key)).toEqual(objects.map((o) => o.key));
    expect(recorded.map((r) => r.rows)).toEqual(objects.map((o) => o.rows.length));
    const months = await db().all<{ month: string; parts: number; rows: number; bytes: number }>(
      sql`SELECT month, parts, rows, bytes FROM message_archive_months ORDER BY month`,
    );
    expect(months.map((m) => [m.month, m.rows])).toEqual([
      ["2015-07", 4],
      ["2015-08", 2],
      ["2015-09", 1],
    ]);
    expect(months.reduce((s, m) => s + m.parts, 0)).toBe(recorded.length);
    expect(months.reduce((s, m) => s + m.bytes, 0)).toBe(recorded.reduce((s, r) => s + r.bytes, 0));

    // Counters, the analytics chart and the dashboard still count them.
    expect(await counters()).toEqual(before);
    // Compliance events stay, and the evidence still shows the STOP text that caused the opt-out.
    expect(
      await db().all(
        sql`SELECT id, at, day, kind, channel, contact_id, address, source, message_id FROM compliance_events ORDER BY id`,
      ),
    ).toEqual(eventsBefore);
    expect(await evidenceCsv(contact.id)).toBe(evidenceBefore);
    // Search no longer finds archived text; it finds what is still in D1.
    expect((await listMessages(db(), { viewer: SEES_ALL, q: "oldtermalpha" })).messages).toEqual([]);
    expect((await listMessages(db(), { viewer: SEES_ALL, q: "newtermbeta" })).messages.map((m) => m.id)).toEqual([
      recent[1],
    ]);
    // The conversation keeps its row and latest message; its thread shows what is left.
    const convo = await db().get<{ last_message_id: number }>(
      sql`SELECT last_message_id FROM conversations WHERE key = ${`c:${contact.id}`}`,
    );
    expect(convo?.last_message_id).toBe(recent[1]);
    expect((await getThread(db(), { contactId: contact.id })).messages.map((m) => m.id)).toEqual([recent[1]]);

    // The guard is off again: an ordinary delete still decrements the counters.
    const n = (await dashboardStats()).responses;
    await db().run(sql`DELETE FROM messages WHERE id = ${recent[1]}`);
    expect((await dashboardStats()).responses).toBe(n - 1);
  });

  it("an idle tick reads a handful of rows; unfinished rows are read again once a day, not every tick", async () => {
    const held = [];
    for (let i = 0; i < 5; i++) held.push(await insertMessage({ at: "2015-01-01T00:00:00Z", status: "held" }));
    const first = await archiveOldMessages(db(), env.ARCHIVE, day(1));
    expect(first.read).toBeGreaterThanOrEqual(5);
    expect((await selectAll(held)).length).toBe(5);
    const idle = await archiveOldMessages(db(), env.ARCHIVE, day(1));
    expect(idle).toMatchObject({ read: 0, archived: 0 });
    expect(idle.rowsRead).toBeLessThanOrEqual(4);
    // The next day the scan starts over and reads the unfinished rows once, then is idle again.
    expect((await archiveOldMessages(db(), env.ARCHIVE, day(2))).read).toBeGreaterThanOrEqual(5);
    expect((await archiveOldMessages(db(), env.ARCHIVE, day(2))).rowsRead).toBeLessThanOrEqual(4);
  });

  it("a Worker that dies between the R2 put and the D1 delete loses and duplicates nothing", async () => {
    const later = day(3);
    const first = await insertMessage({ at: "2014-03-01T00:00:00Z", status: "held" });
    const ids = [
      await insertMessage({ at: "2014-03-02T00:00:00Z", status: "delivered" }),
      await insertMessage({ at: "2014-03-03T00:00:00Z", status: "failed" }),
    ];
    const objectsBefore = (await archivedObjects()).length;

    // The put lands, then the Worker is gone: the batch never runs and the lease is never released.
    const dying: ArchiveBucket = {
      put: async (...args: Parameters<R2Bucket["put"]>) => {
        await env.ARCHIVE.put(...args);
        throw new Error("worker killed");
      },
      delete: (keys) => env.ARCHIVE.delete(keys),
    };
    await expect(archiveOldMessages(db(), dying, later)).rejects.toThrow("worker killed");
    await db().run(sql`UPDATE message_archive_state SET lease_until = ${later.getTime() + ARCHIVE_LEASE_MS}`);
    const orphan = archiveKey("2014-03", ids[0]);
    expect(await env.ARCHIVE.head(orphan)).not.toBeNull();
    expect((await selectAll(ids)).length).toBe(2);

    // While the lease holds, other ticks stay away.
    expect(await archiveOldMessages(db(), env.ARCHIVE, new Date(later.getTime() + 60_000))).toMatchObject({
      busy: true,
      archived: 0,
    });

    // Meanwhile the held message before them was sent: the retry's part starts at it, under another key, and the
    // object of the dead attempt (never recorded) is deleted.
    await db().run(sql`UPDATE messages SET status = 'sent' WHERE id = ${first}`);
    const retry = await archiveOldMessages(db(), env.ARCHIVE, new Date(later.getTime() + ARCHIVE_LEASE_MS + 1));
    expect(retry.archived).toBe(3);
    expect(retry.keys).toEqual([archiveKey("2014-03", first)]);
    expect(await env.ARCHIVE.head(orphan)).toBeNull();
    expect(await selectAll([first, ...ids])).toEqual([]);
    const objects = await archivedObjects();
    expect(objects.length).toBe(objectsBefore + 1);
    const all = objects.flatMap((o) => o.rows.map((r) => r.id));
    expect(new Set(all).size).toBe(all.length);
    expect(all).toEqual(expect.arrayContaining([first, ...ids]));
    expect(await db().get(sql`SELECT archiving, lease_until, pending_keys FROM message_archive_state`)).toEqual({
      archiving: 0,
      lease_until: 0,
      pending_keys: null,
    });

    // The same key again when nothing changed in between: the retry overwrites the dead attempt's object.
    const again = [
      await insertMessage({ at: "2014-04-01T00:00:00Z", status: "delivered" }),
      await insertMessage({ at: "2014-04-02T00:00:00Z", status: "received" }),
    ];
    const tick = day(4);
    await expect(archiveOldMessages(db(), dying, tick)).rejects.toThrow("worker killed");
    expect((await archiveOldMessages(db(), env.ARCHIVE, tick)).keys).toEqual([archiveKey("2014-04", again[0])]);
    const april = (await archivedObjects()).filter((o) => o.key.startsWith("messages/2014-04/"));
    expect(april.map((o) => o.rows.map((r) => r.id))).toEqual([again]);
  });

  it("a superuser downloads a month as one gzip file; the Message Center says what is archived; the retention is a setting", async () => {
    const admin = await createTestUser({ role: "superuser" });
    const cookie = await loginAs(admin);
    const userCookie = await loginAs(await createTestUser());
    const month = "2013-05";
    const ids = [];
    for (let i = 0; i < 5; i++)
      ids.push(await insertMessage({ at: `2013-05-0${i + 1}T00:00:00Z`, status: "delivered" }));
    const later = day(5);
    await archiveUntilDone(later, 2); // three parts for the month
    expect(
      (await db().get<{ parts: number }>(sql`SELECT parts FROM message_archive_months WHERE month = ${month}`))?.parts,
    ).toBe(3);

    const res = await call(`/messages/archives/${month}`, { cookie });
    expect(res.status).toBe(200);
    expect(res.headers.get("Content-Type")).toBe("application/gzip");
    expect(res.headers.get("Content-Disposition")).toBe(`attachment; filename="helio-messages-${month}.ndjson.gz"`);
    // The month's parts one after another: a multi-member gzip file, which gunzip (here Node's zlib) reads as one.
    const bytes = new Uint8Array(await res.arrayBuffer());
    const parts = await db().all<{ key: string }>(
      sql`SELECT key FROM message_archives WHERE month = ${month} ORDER BY key`,
    );
    const objects = await Promise.all(
      parts.map(async (p) => new Uint8Array(await (await env.ARCHIVE.get(p.key))!.arrayBuffer())),
    );
    expect(bytes).toEqual(new Uint8Array(objects.flatMap((o) => [...o])));
    expect(parseNdjson(gunzipText(bytes)).map((r) => r.id)).toEqual(ids);
    expect((await call(`/messages/archives/${month}`, { cookie: userCookie })).status).toBe(403);
    expect((await call(`/messages/archives/${month}?file=2`, { cookie })).status).toBe(404);

    const screen = await (await call("/messages/archives", { cookie })).text();
    expect(screen).toContain(`href="/messages/archives/${month}"`);
    const center = await (await call("/messages", { cookie })).text();
    expect(center).toContain("Messages older than <!-- -->18<!-- --> months are archived.");
    expect(center).toContain('href="/messages/archives"');
    const userCenter = await (await call("/messages", { cookie: userCookie })).text();
    expect(userCenter).toContain("months are archived.");
    expect(userCenter).not.toContain('href="/messages/archives"');

    // The retention is the superusers' setting on the Organisation screen; the task follows it.
    const form = (months: string) =>
      new URLSearchParams({ company: "", companyPhone: "", website: "", messageRetentionMonths: months });
    expect((await call("/organisation", { method: "POST", cookie, body: form("2") })).status).toBe(400);
    expect((await call("/organisation", { method: "POST", cookie: userCookie, body: form("24") })).status).toBe(403);
    expect((await call("/organisation", { method: "POST", cookie, body: form("24") })).status).toBe(302);
    expect((await archiveOldMessages(db(), env.ARCHIVE, later)).cutoff).toBe(retentionCutoff(later, 24));
    expect(await (await call("/messages", { cookie })).text()).toContain(
      "Messages older than <!-- -->24<!-- --> months are archived.",
    );
    await saveOrgSettings(db(), { messageRetentionMonths: 18 }, later);
  });
});
