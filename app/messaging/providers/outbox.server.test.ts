import { env } from "cloudflare:test";
import { eq } from "drizzle-orm";
import { beforeEach, describe, expect, it } from "vitest";
import { createDb } from "~/db/client.server";
import { outboxMessages } from "~/db/schema";
import { advanceOutboxStatuses, createOutboxEmail, createOutboxSms, listOutbox } from "./outbox.server";

const db = createDb(env.DB);
const T0 = new Date("2026-03-01T12:00:00.000Z");
const at = (ms: number) => new Date(T0.getTime() + ms);

// Storage is per test file, so this file owns the table.
beforeEach(async () => {
  await db.delete(outboxMessages);
});

const sms = (messageId: number, to = "+14155550100", body = "Hi") => ({ to, body, statusCallback: null, messageId });
const email = (messageId: number, to = "ana@example.com") => ({
  to,
  subject: "Quote",
  text: "Hello",
  html: "<p>Hello</p>",
  unsubscribeUrl: "https://helio.test/u/x",
  messageId,
});

describe("outbox SMS", () => {
  it("writes an outbox row and answers like a provider", async () => {
    const provider = createOutboxSms(db, { clock: () => T0 });
    expect(provider).toMatchObject({ name: "outbox", sender: "+15005550006" });
    const accepted = await provider.send(sms(7, "+14155550100", "Hello there"));
    expect(accepted.status).toBe("sent");
    expect(accepted.sid).toMatch(/^OB[0-9a-f]{32}$/);

    const rows = await db.select().from(outboxMessages);
    expect(rows).toEqual([
      {
        id: expect.any(Number),
        sid: accepted.sid,
        channel: "sms",
        toAddress: "+14155550100",
        fromAddress: "+15005550006",
        subject: null,
        body: "Hello there",
        status: "sent",
        messageId: 7,
        createdAt: T0,
        updatedAt: T0,
      },
    ]);
  });

  it("is idempotent per messageId: a retry returns the first sid", async () => {
    const provider = createOutboxSms(db, { sender: "+15550001111", clock: () => T0 });
    const first = await provider.send(sms(1));
    const again = await provider.send(sms(1));
    const other = await provider.send(sms(2));
    expect(again.sid).toBe(first.sid);
    expect(other.sid).not.toBe(first.sid);
    const concurrent = await Promise.all(Array.from({ length: 5 }, () => provider.send(sms(3))));
    expect(new Set(concurrent.map((a) => a.sid)).size).toBe(1);
    expect(await db.$count(outboxMessages)).toBe(3);
    expect((await db.select().from(outboxMessages).where(eq(outboxMessages.sid, first.sid)))[0].fromAddress).toBe(
      "+15550001111",
    );
  });

  it("findSent returns this number's messages since a time, newest first", async () => {
    await createOutboxSms(db, { clock: () => at(-10 * 60_000) }).send(sms(1, "+14155550100", "old"));
    await createOutboxSms(db, { clock: () => at(0) }).send(sms(2, "+14155550100", "a"));
    await createOutboxSms(db, { clock: () => at(1000) }).send(sms(3, "+14155550100", "b"));
    await createOutboxSms(db, { clock: () => at(1000) }).send(sms(4, "+14155550101", "someone else"));
    await createOutboxEmail(db, { clock: () => at(1000) }).send(email(5, "+14155550100"));

    const found = await createOutboxSms(db, { clock: () => at(2000) }).findSent("+14155550100", at(-60_000));
    expect(found.map((m) => m.body)).toEqual(["b", "a"]);
    expect(found[0]).toMatchObject({ to: "+14155550100", status: "sent", dateCreated: at(1000) });
  });
});

describe("outbox email", () => {
  it("stores subject and text from helio@localhost, idempotent per messageId and separate from SMS", async () => {
    const provider = createOutboxEmail(db, { clock: () => T0 });
    expect(provider).toMatchObject({ name: "outbox", sender: "helio@localhost" });
    const a = await provider.send(email(9));
    const b = await provider.send(email(9));
    expect(b.sid).toBe(a.sid);
    // Same messageId on the other channel is another message.
    await createOutboxSms(db, { clock: () => T0 }).send(sms(9));
    const rows = await db.select().from(outboxMessages).orderBy(outboxMessages.id);
    expect(rows.map((r) => [r.channel, r.messageId])).toEqual([
      ["email", 9],
      ["sms", 9],
    ]);
    expect(rows[0]).toMatchObject({
      toAddress: "ana@example.com",
      fromAddress: "helio@localhost",
      subject: "Quote",
      body: "Hello",
    });
  });

  it("keeps the html when there is no text part", async () => {
    await createOutboxEmail(db, { clock: () => T0 }).send({ ...email(1), text: "" });
    const [row] = await db.select().from(outboxMessages);
    expect(row.body).toBe("<p>Hello</p>");
  });
});

describe("advanceOutboxStatuses", () => {
  it("moves rows still 'sent' after olderThanMs to 'delivered' and returns them once", async () => {
    const a = await createOutboxSms(db, { clock: () => at(0) }).send(sms(1));
    const b = await createOutboxEmail(db, { clock: () => at(500) }).send(email(2));

    expect(await advanceOutboxStatuses(db, at(1999))).toEqual([]);
    expect(await advanceOutboxStatuses(db, at(2000))).toEqual([
      { sid: a.sid, status: "delivered", channel: "sms", messageId: 1 },
    ]);
    expect(await advanceOutboxStatuses(db, at(10_000))).toEqual([
      { sid: b.sid, status: "delivered", channel: "email", messageId: 2 },
    ]);
    expect(await advanceOutboxStatuses(db, at(20_000))).toEqual([]);

    const rows = await db.select().from(outboxMessages);
    expect(rows.every((r) => r.status === "delivered")).toBe(true);
    expect(rows.find((r) => r.sid === b.sid)!.updatedAt).toEqual(at(10_000));
    // A retry after delivery still finds the same message.
    expect(await createOutboxSms(db, { clock: () => at(30_000) }).send(sms(1))).toEqual({
      sid: a.sid,
      status: "delivered",
    });
  });

  it("honours olderThanMs and limit, oldest first", async () => {
    const sids: string[] = [];
    for (let i = 0; i < 5; i++) sids.push((await createOutboxSms(db, { clock: () => at(i) }).send(sms(i + 1))).sid);
    const first = await advanceOutboxStatuses(db, at(60_000), { olderThanMs: 0, limit: 2 });
    expect(first.map((c) => c.sid)).toEqual(sids.slice(0, 2));
    const rest = await advanceOutboxStatuses(db, at(60_000), { olderThanMs: 0 });
    expect(rest.map((c) => c.sid)).toEqual(sids.slice(2));
  });
});

describe("listOutbox", () => {
  it("pages newest first by id, optionally by channel", async () => {
    for (let i = 1; i <= 5; i++) await createOutboxSms(db, { clock: () => at(i) }).send(sms(i));
    await createOutboxEmail(db, { clock: () => at(6) }).send(email(6));

    const page1 = await listOutbox(db, { limit: 4 });
    expect(page1.items.map((r) => r.messageId)).toEqual([6, 5, 4, 3]);
    expect(page1.nextAfter).toBe(page1.items[3].id);
    const page2 = await listOutbox(db, { limit: 4, after: page1.nextAfter });
    expect(page2.items.map((r) => r.messageId)).toEqual([2, 1]);
    expect(page2.nextAfter).toBeNull();

    const emails = await listOutbox(db, { channel: "email" });
    expect(emails.items.map((r) => r.channel)).toEqual(["email"]);
  });
});
