import { eq, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { contacts } from "~/db/schema";
import { receiveInboundSms } from "~/messaging/receive-inbound.server";
import { call, createTestUser, db, loginAs, signedIn } from "../../tests/factories";
import { createTestContact } from "../../tests/contact-factory";
import { recordingQueue } from "../../tests/messaging-harness";

// The queue's screens through the real Worker (decision 046): plain GETs and form POSTs, what a browser without JS sends.
async function ownedConversation(ownerId: number) {
  const contact = await createTestContact(ownerId, { firstName: `Queue${Math.floor(Math.random() * 1e6)}` });
  await db().update(contacts).set({ ownerUserId: ownerId }).where(eq(contacts.id, contact.id));
  await receiveInboundSms(
    db(),
    recordingQueue(),
    { sid: `SM${crypto.randomUUID().replace(/-/g, "")}`, from: contact.phone, to: "+15550001111", body: "Call me" },
    new Date(),
  );
  const row = await db().get<{ id: number; status: string; snoozed_until: number | null }>(
    sql`SELECT id, status, snoozed_until FROM conversations WHERE key = ${`c:${contact.id}`}`,
  );
  return { contact, conversation: row! };
}

const stateOf = (id: number) =>
  db().get<{ status: string; snoozed_until: number | null }>(
    sql`SELECT status, snoozed_until FROM conversations WHERE id = ${id}`,
  );
const post = (cookie: string, form: Record<string, string>) =>
  call("/messages/conversations/state", { method: "POST", cookie, body: new URLSearchParams(form) });
const page = async (cookie: string, path: string) => {
  const res = await call(path, { cookie });
  expect(res.status, path).toBe(200);
  return res.text();
};
const rowOf = (html: string, name: string) => {
  const at = html.indexOf(name);
  return at < 0 ? null : html.slice(html.lastIndexOf("<li", at), html.indexOf("</li>", at));
};

describe("the inbox queue's routes", () => {
  it("a rep's new reply is in Mine, unread, with the sidebar count; snooze and close by form; opening it reads it", async () => {
    const { user, cookie } = await signedIn();
    const { contact, conversation } = await ownedConversation(user.id);
    const name = contact.firstName;

    let html = await page(cookie, "/messages/conversations");
    expect(rowOf(html, name)).toMatch(/data-unread="1"/);
    expect(html).toMatch(/data-testid="nav-count"[^>]*>\d+/);
    // A standard user is offered Mine and Unassigned, not All.
    expect(html).toMatch(/>Unassigned</);
    expect(html).not.toMatch(/view=all/);

    // Snooze until a date and time in the rep's zone (the conversation screen's field).
    const until = new Date(Date.now() + 3 * 24 * 3600_000);
    const local = until.toISOString().slice(0, 16); // in UTC, so tz=UTC gives the same instant back to the minute
    let res = await post(cookie, {
      intent: "snooze",
      id: String(conversation.id),
      until: local,
      tz: "UTC",
      back: "/x",
    });
    expect(res.status).toBe(302);
    expect(res.headers.get("Location")).toBe("/x");
    expect((await stateOf(conversation.id))!.snoozed_until).toBe(Math.floor(until.getTime() / 60_000) * 60_000);
    expect(rowOf(await page(cookie, "/messages/conversations"), name)).toBeNull();
    expect(rowOf(await page(cookie, "/messages/conversations?view=mine&state=snoozed"), name)).toMatch(/Snoozed until/);

    res = await post(cookie, { intent: "close", id: String(conversation.id) });
    expect(res.status).toBe(302);
    expect(res.headers.get("Location")).toBe("/messages/conversations");
    expect(await stateOf(conversation.id)).toEqual({ status: "closed", snoozed_until: null });
    expect(rowOf(await page(cookie, "/messages/conversations?view=mine&state=closed"), name)).toMatch(/Reopen/);

    // Opening the conversation reads it; the contact page offers Reopen.
    html = await page(cookie, `/contacts/${contact.id}`);
    expect(html).toMatch(/data-queue-action="reopen"/);
    res = await post(cookie, { intent: "reopen", id: String(conversation.id) });
    expect((await stateOf(conversation.id))!.status).toBe("open");
    expect(rowOf(await page(cookie, "/messages/conversations"), name)).toMatch(/data-unread="0"/);
  });

  it("a standard user cannot see All or change another rep's conversation; a superuser can", async () => {
    const { cookie } = await signedIn();
    const other = await createTestUser();
    const { conversation } = await ownedConversation(other.id);
    expect((await call("/messages/conversations?view=all", { cookie })).status).toBe(403);
    const res = await post(cookie, { intent: "close", id: String(conversation.id) });
    expect(res.status).toBe(302); // a destructive toast on the page that asked
    expect((await stateOf(conversation.id))!.status).toBe("open");

    const boss = await createTestUser({ role: "superuser" });
    const bossCookie = await loginAs(boss);
    expect(await page(bossCookie, "/messages/conversations?view=all")).toMatch(/view=all/);
    await post(bossCookie, { intent: "close", id: String(conversation.id) });
    expect((await stateOf(conversation.id))!.status).toBe("closed");
  });

  it("a snooze time that is not one, or in the past, changes nothing", async () => {
    const { user, cookie } = await signedIn();
    const { conversation } = await ownedConversation(user.id);
    for (const form of [
      { until: "tomorrow", tz: "UTC" },
      { until: "2020-01-01T09:00", tz: "UTC" },
      { until: "2030-01-01T09:00", tz: "Not/AZone" },
    ]) {
      const res = await post(cookie, { intent: "snooze", id: String(conversation.id), ...form });
      expect(res.status, JSON.stringify(form)).toBe(302);
      expect((await stateOf(conversation.id))!.snoozed_until, JSON.stringify(form)).toBeNull();
    }
  });
});
