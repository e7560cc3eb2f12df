import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { getThread } from "~/conversations/get-conversation.server";
import { listConversations } from "~/conversations/list-conversations.server";
import { sendReply } from "~/conversations/send-reply.server";
import { createTestContact, uniqueTag } from "../../tests/contact-factory";
import { createTestUser, db, SEES_ALL } from "../../tests/factories";
import { appHooks, DAYTIME, pipeline, queueMessage } from "../../tests/messaging-harness";
import { listMessages, nameSearchQuery } from "./list-messages.server";
import { ALL_OPEN } from "../../tests/conversation-queue";
import { plan } from "../../tests/query-plan";

// Issue 24, item 12: messages written in the same instant (a broadcast writes hundreds in one millisecond) are newest
// first by id; a waiting bulk row shows what the contact will read and is found by the contact's name.
const nonce = () => crypto.randomUUID();

describe("newest-first message lists (issue 24, item 12)", () => {
  it("conversations whose last messages share a timestamp are ordered by the newest message, across pages", async () => {
    const { deps, queue } = await pipeline({ clock: () => DAYTIME });
    const user = await createTestUser();
    const older = await createTestContact(user.id, { state: "CA" });
    const newer = await createTestContact(user.id, { state: "CA" });
    const reply = (contactId: number, message: string) =>
      sendReply(
        { db: deps.db, queue, now: DAYTIME, hooks: appHooks },
        { contactId },
        { message, nonce: nonce() },
        { userId: user.id, role: "superuser", ipAddress: null },
      );
    // `older`'s conversation row is created first, but its latest message is the newest of the two.
    await reply(older.id, "first");
    await reply(newer.id, "second");
    await reply(older.id, "third");
    const all = (await listConversations(deps.db, { ...ALL_OPEN, limit: 100 })).conversations.filter(
      (c) => c.contactId === older.id || c.contactId === newer.id,
    );
    expect(all.map((c) => c.contactId)).toEqual([older.id, newer.id]);
    expect(all.map((c) => c.lastPreview)).toEqual(["third", "second"]);

    // Keyset paging on the same tie: page one ends at `older`, page two starts with `newer`.
    const page = await listConversations(deps.db, { ...ALL_OPEN, limit: 100 });
    const at = page.conversations.findIndex((c) => c.contactId === older.id);
    const one = await listConversations(deps.db, { ...ALL_OPEN, limit: at + 1 });
    expect(one.conversations.at(-1)!.contactId).toBe(older.id);
    const two = await listConversations(deps.db, { ...ALL_OPEN, limit: 1, after: one.nextCursor });
    expect(two.conversations[0].contactId).toBe(newer.id);
  });

  it("a waiting campaign row shows the text the contact will get and is found by the contact's name", async () => {
    const { queue } = await pipeline({ clock: () => DAYTIME });
    const user = await createTestUser();
    const last = uniqueTag("Qz");
    const contact = await createTestContact(user.id, { firstName: "Zelda", lastName: last, state: "AZ" });
    const later = new Date(DAYTIME.getTime() + 24 * 3600_000); // scheduled: stays pending with its template
    const id = await queueMessage(
      { db: db() },
      queue,
      {
        kind: "campaign",
        phone: contact.phone,
        contactId: contact.id,
        content: "Hi {{firstName}}, {{salesRep}} here about your roof.",
        idempotencyKey: uniqueTag("p"),
        scheduledAt: later,
      },
      DAYTIME,
    );
    const byName = (await listMessages(db(), { viewer: SEES_ALL, q: `zelda ${last}` })).messages;
    expect(byName.map((m) => m.id)).toEqual([id]);
    expect(byName[0]).toMatchObject({
      status: "pending",
      contactName: `Zelda ${last}`,
      content: "Hi Zelda, {{salesRep}} here about your roof.",
    });
    const listed = (await listMessages(db(), { viewer: SEES_ALL, limit: 20 })).messages.find((m) => m.id === id);
    expect(listed?.content).toBe("Hi Zelda, {{salesRep}} here about your roof.");
    // The contact's page shows it the same way.
    expect((await getThread(db(), { contactId: contact.id })).messages.map((m) => m.content)).toEqual([
      "Hi Zelda, {{salesRep}} here about your roof.",
    ]);
  });

  it("the name search reads the matching contacts' threads by index, never the message table", async () => {
    const p = await plan(nameSearchQuery(db(), '"zelda"', sql`1`, null, 51).getSQL());
    expect(p).toMatch(/SEARCH m USING INDEX messages_contact_thread_idx/);
    expect(p).not.toMatch(/SCAN m\b/);
  });
});
