import { eq, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { contacts } from "~/db/schema";
import { receiveInboundSms } from "~/messaging/receive-inbound.server";
import { createTestUser, db } from "../../tests/factories";
import { createTestContact, uniquePhone } from "../../tests/contact-factory";
import { recordingQueue } from "../../tests/messaging-harness";
import {
  ALL_VIEW_FORBIDDEN,
  listConversations,
  QUEUE_STATES,
  QUEUE_VIEWS,
  selectConversationPage,
  type QueueState,
  type QueueView,
} from "./list-conversations.server";
import { selectUnreadInQueue } from "./count-unread-conversations.server";
import { loadSidebarCounts } from "~/http/load-sidebar-counts.server";
import { openConversation } from "./open-conversation.server";
import { setConversationState, SNOOZE_IN_PAST } from "./set-conversation-state.server";
import { plan } from "../../tests/query-plan";

const T0 = new Date("2026-11-27T15:00:00Z");
const HOUR = 3600_000;
const at = (ms: number) => new Date(T0.getTime() + ms);

async function reply(from: string, body: string, now: Date) {
  await receiveInboundSms(
    db(),
    recordingQueue(),
    { sid: `SM${crypto.randomUUID().replace(/-/g, "")}`, from, to: "+15550001111", body },
    now,
  );
}

const conversationOf = (contactId: number) =>
  db().get<{ id: number; owner_user_id: number | null; status: string }>(
    sql`SELECT id, owner_user_id, status FROM conversations WHERE key = ${`c:${contactId}`}`,
  );

/** The ids on a view/state's first page for this user, among `ids`. */
async function listed(
  userId: number,
  view: QueueView,
  state: QueueState,
  ids: number[],
  now: Date,
  seeAll = true,
): Promise<number[]> {
  const page = await listConversations(db(), { view, state, userId, seeAll, now, limit: 100 });
  return page.conversations.map((c) => c.id).filter((id) => ids.includes(id));
}

describe("the inbox queue (decision 046)", () => {
  it("a conversation's owner is its contact's, kept by triggers; a number with no contact is unassigned", async () => {
    const rep = await createTestUser();
    const other = await createTestUser();
    const owned = await createTestContact(rep.id);
    await db().update(contacts).set({ ownerUserId: rep.id }).where(eq(contacts.id, owned.id));
    const unowned = await createTestContact(rep.id);
    const bare = uniquePhone();
    await reply(owned.phone, "Hi", T0);
    await reply(unowned.phone, "Hello", T0);
    await reply(bare, "Who is this?", T0);
    const a = (await conversationOf(owned.id))!;
    const b = (await conversationOf(unowned.id))!;
    const c = (await db().get<{ id: number; owner_user_id: number | null }>(
      sql`SELECT id, owner_user_id FROM conversations WHERE key = ${`p:${bare}`}`,
    ))!;
    expect([a.owner_user_id, b.owner_user_id, c.owner_user_id]).toEqual([rep.id, null, null]);
    const ids = [a.id, b.id, c.id];
    expect(await listed(rep.id, "mine", "open", ids, T0)).toEqual([a.id]);
    expect((await listed(rep.id, "unassigned", "open", ids, T0)).sort()).toEqual([b.id, c.id].sort());
    expect((await listed(rep.id, "all", "open", ids, T0)).sort()).toEqual(ids.sort());

    // The contact is handed to another rep: the conversation follows, without touching the conversation itself.
    await db().update(contacts).set({ ownerUserId: other.id }).where(eq(contacts.id, owned.id));
    expect((await conversationOf(owned.id))!.owner_user_id).toBe(other.id);
    expect(await listed(rep.id, "mine", "open", ids, T0)).toEqual([]);
    expect(await listed(other.id, "mine", "open", ids, T0)).toEqual([a.id]);
    // The owner's account goes: the conversation is unassigned again.
    await db().run(sql`DELETE FROM users WHERE id = ${other.id}`);
    expect((await conversationOf(owned.id))!.owner_user_id).toBe(null);
  });

  it("without seeAll the All view is refused and another rep's conversation cannot be changed", async () => {
    const rep = await createTestUser();
    const other = await createTestUser();
    const theirs = await createTestContact(other.id);
    await db().update(contacts).set({ ownerUserId: other.id }).where(eq(contacts.id, theirs.id));
    await reply(theirs.phone, "Hi", T0);
    const id = (await conversationOf(theirs.id))!.id;
    await expect(
      listConversations(db(), { view: "all", state: "open", userId: rep.id, seeAll: false, now: T0 }),
    ).rejects.toMatchObject({ code: "forbidden", message: ALL_VIEW_FORBIDDEN });
    expect(
      (await listConversations(db(), { view: "mine", state: "open", userId: rep.id, seeAll: false, now: T0 })).views,
    ).toEqual(["mine", "unassigned"]);
    await expect(
      setConversationState(db(), id, { intent: "close" }, { userId: rep.id, seeAll: false }, T0),
    ).rejects.toMatchObject({ code: "not_found" });
    expect((await conversationOf(theirs.id))!.status).toBe("open");
    // Someone who may see all (a superuser today) can.
    await setConversationState(db(), id, { intent: "close" }, { userId: rep.id, seeAll: true }, T0);
    expect((await conversationOf(theirs.id))!.status).toBe("closed");
  });

  it("close, snooze until a time (open again once it has passed), reopen; a new reply reopens a closed or snoozed one", async () => {
    const rep = await createTestUser();
    const contact = await createTestContact(rep.id);
    await db().update(contacts).set({ ownerUserId: rep.id }).where(eq(contacts.id, contact.id));
    await reply(contact.phone, "Hi", T0);
    const id = (await conversationOf(contact.id))!.id;
    const where = async (now: Date) => {
      const out: string[] = [];
      for (const s of QUEUE_STATES) if ((await listed(rep.id, "mine", s, [id], now)).length) out.push(s);
      return out;
    };
    const actor = { userId: rep.id, seeAll: false };
    expect(await where(T0)).toEqual(["open"]);

    await expect(setConversationState(db(), id, { intent: "snooze", until: at(-1) }, actor, T0)).rejects.toMatchObject({
      code: "validation",
      message: SNOOZE_IN_PAST,
    });
    await setConversationState(db(), id, { intent: "snooze", until: at(2 * HOUR) }, actor, T0);
    expect(await where(T0)).toEqual(["snoozed"]);
    const [row] = (
      await listConversations(db(), { view: "mine", state: "snoozed", userId: rep.id, seeAll: false, now: T0 })
    ).conversations;
    expect(row).toMatchObject({ id, state: "snoozed", snoozedUntil: at(2 * HOUR).toISOString() });
    // The time passes: open again, with nothing having run.
    expect(await where(at(2 * HOUR))).toEqual(["open"]);

    await setConversationState(db(), id, { intent: "close" }, actor, T0);
    expect(await where(T0)).toEqual(["closed"]);
    await setConversationState(db(), id, { intent: "reopen" }, actor, T0);
    expect(await where(T0)).toEqual(["open"]);

    // A reply reopens a closed conversation, and a snoozed one.
    await setConversationState(db(), id, { intent: "close" }, actor, T0);
    await reply(contact.phone, "Still there?", at(HOUR));
    expect(await where(at(HOUR))).toEqual(["open"]);
    await setConversationState(db(), id, { intent: "snooze", until: at(48 * HOUR) }, actor, at(HOUR));
    await reply(contact.phone, "Hello??", at(2 * HOUR));
    expect(await where(at(2 * HOUR))).toEqual(["open"]);
  });

  it("unread: a reply in Mine or Unassigned counts until the user opens the conversation; another rep's does not", async () => {
    const rep = await createTestUser();
    const other = await createTestUser();
    const mine = await createTestContact(rep.id);
    const theirs = await createTestContact(other.id);
    await db().update(contacts).set({ ownerUserId: rep.id }).where(eq(contacts.id, mine.id));
    await db().update(contacts).set({ ownerUserId: other.id }).where(eq(contacts.id, theirs.id));
    const before = (await loadSidebarCounts(db(), rep.id, T0)).unread;
    await reply(mine.phone, "Hi", T0);
    await reply(theirs.phone, "Hi", T0);
    expect((await loadSidebarCounts(db(), rep.id, T0)).unread).toBe(before + 1);
    const bare = uniquePhone();
    await reply(bare, "Hello?", T0);
    expect((await loadSidebarCounts(db(), rep.id, T0)).unread).toBe(before + 2);

    const id = (await conversationOf(mine.id))!.id;
    const row = async () =>
      (
        await listConversations(db(), { view: "mine", state: "open", userId: rep.id, seeAll: false, now: T0 })
      ).conversations.find((c) => c.id === id);
    expect((await row())!.unread).toBe(true);
    expect(await openConversation(db(), rep.id, { contactId: mine.id }, T0)).toMatchObject({ id, state: "open" });
    expect((await row())!.unread).toBe(false);
    await openConversation(db(), rep.id, { phone: bare }, T0);
    expect((await loadSidebarCounts(db(), rep.id, T0)).unread).toBe(before);
    // Read per user: the other rep's marker is theirs.
    expect((await loadSidebarCounts(db(), other.id, T0)).unread).toBeGreaterThanOrEqual(1);

    // A new reply is unread again; a snoozed or closed conversation does not count.
    await reply(mine.phone, "One more thing", at(HOUR));
    expect((await loadSidebarCounts(db(), rep.id, at(HOUR))).unread).toBe(before + 1);
    await setConversationState(
      db(),
      id,
      { intent: "snooze", until: at(5 * HOUR) },
      { userId: rep.id, seeAll: false },
      at(HOUR),
    );
    expect((await loadSidebarCounts(db(), rep.id, at(HOUR))).unread).toBe(before);
    expect((await loadSidebarCounts(db(), rep.id, at(5 * HOUR))).unread).toBe(before + 1);
  });
});

// Every list and count statement of the queue seeks an index and needs no sort (decision 046): 100k conversations
// stay one index walk of a page.

describe("query plans of the inbox queue", () => {
  const INDEX: Record<QueueView, Record<QueueState, RegExp>> = {
    mine: {
      open: /SEARCH v USING INDEX conversations_queue_idx \(owner_user_id=\? AND status=\?/,
      closed: /SEARCH v USING INDEX conversations_queue_idx \(owner_user_id=\? AND status=\?/,
      snoozed: /SEARCH v USING INDEX conversations_snoozed_idx \(owner_user_id=\? AND snoozed_until>\?/,
    },
    unassigned: {
      open: /SEARCH v USING INDEX conversations_queue_idx \(owner_user_id=\? AND status=\?/,
      closed: /SEARCH v USING INDEX conversations_queue_idx \(owner_user_id=\? AND status=\?/,
      snoozed: /SEARCH v USING INDEX conversations_snoozed_idx \(owner_user_id=\? AND snoozed_until>\?/,
    },
    all: {
      open: /SEARCH v USING INDEX conversations_status_recent_idx \(status=\?/,
      closed: /SEARCH v USING INDEX conversations_status_recent_idx \(status=\?/,
      snoozed: /SEARCH v USING INDEX conversations_snoozed_all_idx \(snoozed_until>\?/,
    },
  };
  it("each view × state page, first and next, seeks its index with no scan and no sort", async () => {
    for (const view of QUEUE_VIEWS)
      for (const state of QUEUE_STATES)
        for (const after of [null, "1764255600000-42"]) {
          const q = selectConversationPage(db(), { view, state, userId: 7, seeAll: true, now: T0, after, limit: 26 });
          const p = await plan(q.getSQL());
          const name = `${view}/${state}${after ? " (next page)" : ""}: ${p}`;
          expect(p, name).toMatch(INDEX[view][state]);
          expect(p, name).toMatch(/SEARCH c USING INTEGER PRIMARY KEY/);
          expect(p, name).toMatch(/SEARCH o USING INTEGER PRIMARY KEY/);
          expect(p, name).toMatch(/SEARCH r USING PRIMARY KEY \(user_id=\? AND conversation_id=\?\)/);
          expect(p, name).not.toMatch(/SCAN|TEMP B-TREE/);
        }
  });

  it("the sidebar's unread count is a LIMIT on a seek of conversations_queue_idx, each row's marker by primary key", async () => {
    for (const view of ["mine", "unassigned"] as const) {
      const p = await plan(selectUnreadInQueue(db(), view, 7, T0).getSQL());
      expect(p, p).toMatch(/SEARCH v USING INDEX conversations_queue_idx \(owner_user_id=\? AND status=\?\)/);
      expect(p, p).toMatch(/SEARCH r USING PRIMARY KEY \(user_id=\? AND conversation_id=\?\)/);
      expect(p, p).not.toMatch(/TEMP B-TREE|SCAN v/);
      expect(selectUnreadInQueue(db(), view, 7, T0).toSQL().sql).toMatch(/limit \?/i);
    }
  });
});
