// Per-rep figures (issue 27 item 8, decision 050): conversations handled and replies sent come from rep_reply_days,
// which the trigger messages_rep_replies_au keeps when a person's text to a contact is handed to the provider; the
// read is one primary-key range per rep.
import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { createTestContact, uniqueTag } from "../../tests/contact-factory";
import { call, createTestUser, db, loginAs } from "../../tests/factories";
import { listUserAnalytics } from "./list-user-analytics.server";
import { repReplyFigures, repReplyFiguresQuery } from "./rep-reply-figures.server";
import { plan } from "../../tests/query-plan";

const DAY = Date.parse("2026-11-20T15:00:00Z");
const D = 86_400_000;

/** A text as the pipeline writes it (queued), then handed to the provider (`sent`) at `at`, as the consumer does. */
async function text(
  m: { kind: string; contactId: number; createdBy: number | null; direction?: string; isTest?: boolean },
  at: number,
) {
  const key = uniqueTag("rep");
  await db().run(
    sql`INSERT INTO messages (channel, direction, kind, status, contact_id, phone, content, idempotency_key, is_test, created_by, created_at, updated_at)
        VALUES ('sms', ${m.direction ?? "outbound"}, ${m.kind}, ${m.direction === "inbound" ? "received" : "queued"}, ${m.contactId}, '+15550000000', 'hi', ${key}, ${m.isTest ? 1 : 0}, ${m.createdBy}, ${at}, ${at})`,
  );
  await db().run(
    sql`UPDATE messages SET status = 'sent', sent_at = ${at}, updated_at = ${at} WHERE idempotency_key = ${key}`,
  );
}

describe("per-rep figures", () => {
  it("count the contacts a rep texted and their texts in the period, and nothing a campaign, a test, an inbound or another rep sent", async () => {
    const rep = await createTestUser();
    const other = await createTestUser();
    const [a, b, c] = await Promise.all([1, 2, 3].map(() => createTestContact(rep.id)));
    await text({ kind: "individual", contactId: a.id, createdBy: rep.id }, DAY);
    await text({ kind: "reply", contactId: a.id, createdBy: rep.id }, DAY + 60_000);
    await text({ kind: "reply", contactId: a.id, createdBy: rep.id }, DAY - 2 * D); // another day, same conversation
    await text({ kind: "quick", contactId: b.id, createdBy: rep.id }, DAY - 3 * D);
    await text({ kind: "campaign", contactId: c.id, createdBy: rep.id }, DAY);
    await text({ kind: "individual", contactId: c.id, createdBy: rep.id, isTest: true }, DAY);
    await text({ kind: "inbound", contactId: c.id, createdBy: null, direction: "inbound" }, DAY);
    await text({ kind: "reply", contactId: c.id, createdBy: other.id }, DAY);
    await text({ kind: "reply", contactId: c.id, createdBy: rep.id }, DAY - 40 * D); // before the period

    const week = { from: new Date(DAY - 7 * D), to: new Date(DAY) };
    const figures = await repReplyFigures(db(), [rep.id, other.id], week);
    expect(figures.get(rep.id)).toEqual({ conversationsHandled: 2, repliesSent: 4 });
    expect(figures.get(other.id)).toEqual({ conversationsHandled: 1, repliesSent: 1 });
    const lastDay = await repReplyFigures(db(), [rep.id], { from: new Date(DAY), to: new Date(DAY) });
    expect(lastDay.get(rep.id)).toEqual({ conversationsHandled: 1, repliesSent: 2 });

    const page = await listUserAnalytics(db(), { after: rep.id - 1, limit: 1, now: new Date(DAY) });
    expect(page.items[0]).toMatchObject({
      id: rep.id,
      repFigures: { days: 30, conversationsHandled: 2, repliesSent: 4 },
    });
  });

  it("User Analytics shows the selected rep's conversations handled and replies sent for the period (no JS)", async () => {
    const admin = await createTestUser({ role: "superuser" });
    const rep = await createTestUser();
    const [a, b] = await Promise.all([1, 2].map(() => createTestContact(rep.id)));
    const now = Date.now();
    for (const [contactId, at] of [
      [a.id, now - 60_000],
      [a.id, now - 30_000],
      [b.id, now - 2 * D],
    ])
      await text({ kind: "individual", contactId, createdBy: rep.id }, at);
    const res = await call(`/user-analytics?tab=details&user=${rep.id}&range=7`, { cookie: await loginAs(admin) });
    expect(res.status).toBe(200);
    const html = await res.text();
    expect(html).toMatch(/Conversations handled<\/p>[\s\S]{0,800}?text-3xl font-bold">2<\/p>/);
    expect(html).toMatch(/Replies sent<\/p>[\s\S]{0,800}?text-3xl font-bold">3<\/p>/);
  });

  it("read one primary-key range per rep, never the messages table", async () => {
    const p = await plan(
      repReplyFiguresQuery(db(), [1, 2, 3], { from: new Date(DAY - 30 * D), to: new Date(DAY) }).getSQL(),
    );
    expect(p).toMatch(/SEARCH rep_reply_days USING PRIMARY KEY \(user_id=\? AND day>\? AND day<\?\)/);
    expect(p).not.toMatch(/SCAN rep_reply_days|messages/);
  });
});
