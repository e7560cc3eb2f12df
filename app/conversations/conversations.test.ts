import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { receiveInboundSms } from "~/messaging/receive-inbound.server";
import { sendMessages } from "~/messaging/consume-send-batch.server";
import { createTestUser, db } from "../../tests/factories";
import { createTestContact, uniquePhone } from "../../tests/contact-factory";
import { DAYTIME, pipeline, appHooks } from "../../tests/messaging-harness";
import { getThread } from "./get-conversation.server";
import { toPlainGsm, hasReplaceableChars } from "./gsm-replace";
import { listConversations } from "./list-conversations.server";
import { sendReply } from "./send-reply.server";
import { ALL_OPEN } from "../../tests/conversation-queue";

const NIGHT = new Date("2026-11-18T09:30:00Z"); // 01:30 in Los Angeles: quiet hours
const nonce = () => crypto.randomUUID();
const conversationOf = (key: string) =>
  db().get<{ last_direction: string; needs_reply: number; last_preview: string }>(
    sql`SELECT * FROM conversations WHERE key = ${key}`,
  );

describe("conversations", () => {
  it("the trigger keeps one row per contact: needs reply after an inbound, cleared by our reply; the list is newest first", async () => {
    const { deps, queue } = await pipeline({ clock: () => DAYTIME });
    const user = await createTestUser();
    const contact = await createTestContact(user.id, { firstName: "Rosa", state: "CA" });
    const other = await createTestContact(user.id, { state: "CA" });
    await sendReply(
      { db: deps.db, queue, now: DAYTIME, hooks: appHooks },
      { contactId: other.id },
      { message: "Hello other", nonce: nonce() },
      { userId: user.id, role: "superuser", ipAddress: null },
    );
    await receiveInboundSms(
      deps.db,
      queue,
      {
        sid: `SM${crypto.randomUUID().replace(/-/g, "")}`,
        from: contact.phone,
        to: "+15550001111",
        body: "Is solar worth it?",
      },
      DAYTIME,
    );

    expect(await conversationOf(`c:${contact.id}`)).toMatchObject({
      last_direction: "inbound",
      needs_reply: 1,
      last_preview: "Is solar worth it?",
    });
    const first = await listConversations(deps.db, { ...ALL_OPEN, limit: 100 });
    const mine = first.conversations.filter((c) => c.contactId === contact.id || c.contactId === other.id);
    expect(mine.map((c) => [c.contactId, c.needsReply])).toEqual([
      [contact.id, true],
      [other.id, false],
    ]);

    const sent = await sendReply(
      { db: deps.db, queue, now: DAYTIME, hooks: appHooks },
      { contactId: contact.id },
      { message: "Yes, {{firstName}}!", nonce: nonce() },
      { userId: user.id, role: "superuser", ipAddress: null },
    );
    expect(sent.conversational).toBe(true);
    await sendMessages(queue.takeSendJobs(), deps);
    // The list's preview is the rendered text the consumer wrote, read from the message (decision 056); the row keeps
    // the text as written, for when that message is archived.
    expect(await conversationOf(`c:${contact.id}`)).toMatchObject({
      last_direction: "outbound",
      needs_reply: 0,
      last_preview: "Yes, {{firstName}}!",
    });
    const listed = (await listConversations(deps.db, { ...ALL_OPEN, limit: 100 })).conversations;
    expect(listed.find((c) => c.contactId === contact.id)?.lastPreview).toBe("Yes, Rosa!");
    const thread = await getThread(deps.db, { contactId: contact.id });
    expect(thread.messages.map((m) => [m.direction, m.content])).toEqual([
      ["inbound", "Is solar worth it?"],
      ["outbound", "Yes, Rosa!"],
    ]);
  });

  it("keyset pages: the first page is the newest messages, 'earlier' goes back to the start", async () => {
    const { deps, queue } = await pipeline({ clock: () => DAYTIME });
    const user = await createTestUser();
    const contact = await createTestContact(user.id);
    for (let i = 0; i < 5; i++) {
      await sendReply(
        { db: deps.db, queue, now: DAYTIME, hooks: appHooks },
        { contactId: contact.id },
        { message: `m${i}`, nonce: nonce() },
        { userId: user.id, role: "superuser", ipAddress: null },
      );
    }
    const newest = await getThread(deps.db, { contactId: contact.id }, { limit: 2 });
    expect(newest.messages.map((m) => m.content)).toEqual(["m3", "m4"]);
    const earlier = await getThread(deps.db, { contactId: contact.id }, { limit: 2, before: newest.earlierCursor });
    expect(earlier.messages.map((m) => m.content)).toEqual(["m1", "m2"]);
    const start = await getThread(deps.db, { contactId: contact.id }, { limit: 2, before: earlier.earlierCursor });
    expect(start).toMatchObject({ earlierCursor: null });
    expect(start.messages.map((m) => m.content)).toEqual(["m0"]);
  });

  it("a double submit with the same nonce sends once", async () => {
    const { deps, queue } = await pipeline({ clock: () => DAYTIME });
    const user = await createTestUser();
    const contact = await createTestContact(user.id);
    const n = nonce();
    const a = await sendReply(
      { db: deps.db, queue, now: DAYTIME, hooks: appHooks },
      { contactId: contact.id },
      { message: "once", nonce: n },
      { userId: user.id, role: "superuser", ipAddress: null },
    );
    const b = await sendReply(
      { db: deps.db, queue, now: DAYTIME, hooks: appHooks },
      { contactId: contact.id },
      { message: "once", nonce: n },
      { userId: user.id, role: "superuser", ipAddress: null },
    );
    expect(b.id).toBe(a.id);
    expect(
      (await db().get<{ n: number }>(sql`SELECT count(*) AS n FROM messages WHERE contact_id = ${contact.id}`))!.n,
    ).toBe(1);
  });

  it("quiet hours: a reply to a contact who just wrote goes at once (kind reply); an unprompted one is deferred", async () => {
    const { deps, queue, twilio } = await pipeline({ clock: () => NIGHT });
    const user = await createTestUser();
    const wrote = await createTestContact(user.id, { state: "CA" });
    const silent = await createTestContact(user.id, { state: "CA" });
    await receiveInboundSms(
      deps.db,
      queue,
      { sid: `SM${crypto.randomUUID().replace(/-/g, "")}`, from: wrote.phone, to: "+15550001111", body: "Call me?" },
      NIGHT,
    );
    const r1 = await sendReply(
      { db: deps.db, queue, now: NIGHT, hooks: appHooks },
      { contactId: wrote.id },
      { message: "Sure, tomorrow 9am", nonce: nonce() },
      { userId: user.id, role: "superuser", ipAddress: null },
    );
    const r2 = await sendReply(
      { db: deps.db, queue, now: NIGHT, hooks: appHooks },
      { contactId: silent.id },
      { message: "Special offer", nonce: nonce() },
      { userId: user.id, role: "superuser", ipAddress: null },
    );
    await sendMessages(queue.takeSendJobs(), deps);
    const rows = await db().all<{ id: number; kind: string; is_marketing: number; status: string }>(
      sql`SELECT id, kind, is_marketing, status FROM messages WHERE id IN (${r1.id}, ${r2.id}) ORDER BY id`,
    );
    expect(rows.map((r) => [r.kind, r.is_marketing, r.status])).toEqual([
      ["reply", 0, "sent"],
      ["individual", 1, "pending"],
    ]);
    expect((await twilio.calls()).map((c) => c.body)).toContain("Sure, tomorrow 9am");
    expect((await twilio.calls()).map((c) => c.body)).not.toContain("Special offer");
  });

  it("refuses with the reason when the contact opted out, and writes nothing", async () => {
    const { deps, queue } = await pipeline({ clock: () => DAYTIME });
    const user = await createTestUser();
    const contact = await createTestContact(user.id);
    await receiveInboundSms(
      deps.db,
      queue,
      { sid: `SM${crypto.randomUUID().replace(/-/g, "")}`, from: contact.phone, to: "+15550001111", body: "STOP" },
      DAYTIME,
    );
    const before = (await db().get<{ n: number }>(
      sql`SELECT count(*) AS n FROM messages WHERE contact_id = ${contact.id} AND direction = 'outbound' AND kind <> 'compliance'`,
    ))!.n;
    const reply = (to: { contactId: number } | { phone: string }) =>
      sendReply(
        { db: deps.db, queue, now: DAYTIME, hooks: appHooks },
        to,
        { message: "Hi?", nonce: nonce() },
        { userId: user.id, role: "superuser", ipAddress: null },
      );
    await expect(reply({ contactId: contact.id })).rejects.toMatchObject({
      code: "conflict",
      message: expect.stringContaining("opted out"),
    });
    await expect(reply({ phone: contact.phone })).rejects.toMatchObject({ code: "conflict" });
    expect(
      (await db().get<{ n: number }>(
        sql`SELECT count(*) AS n FROM messages WHERE contact_id = ${contact.id} AND direction = 'outbound' AND kind <> 'compliance'`,
      ))!.n,
    ).toBe(before);
  });

  it("a number without a contact has its own conversation", async () => {
    const { deps, queue } = await pipeline({ clock: () => DAYTIME });
    const phone = uniquePhone();
    await receiveInboundSms(
      deps.db,
      queue,
      { sid: `SM${crypto.randomUUID().replace(/-/g, "")}`, from: phone, to: "+15550001111", body: "who is this" },
      DAYTIME,
    );
    expect(await conversationOf(`p:${phone}`)).toMatchObject({ needs_reply: 1 });
    expect((await getThread(deps.db, { phone })).messages.map((m) => m.content)).toEqual(["who is this"]);
  });

  it("replaces curly quotes and dashes with their GSM-7 twins", () => {
    expect(toPlainGsm("It\u2019s \u201Cgreat\u201D \u2014 really\u2026")).toBe('It\'s "great" - really...');
    expect(hasReplaceableChars("plain 'text'")).toBe(false);
    expect(hasReplaceableChars("it\u2019s")).toBe(true);
  });
});
