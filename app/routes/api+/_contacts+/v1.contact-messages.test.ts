import { beforeAll, describe, expect, it } from "vitest";
import { contactMessagesPage } from "~/conversations/list-contact-messages.server";
import { messages } from "~/db/schema";
import { call, createTestUser, db } from "../../../../tests/factories";
import { createTestContact } from "../../../../tests/contact-factory";
import { bearer, createTestApiKey } from "../../../../tests/api-key-factory";
import { plan } from "../../../../tests/query-plan";

type Page = { data: { id: number; direction: string; status: string; content: string }[]; nextCursor: number | null };

let userId = 0;
let reader = "";
beforeAll(async () => {
  userId = (await createTestUser()).id;
  reader = (await createTestApiKey(userId, ["read"])).secret;
});

async function seedMessages(contactId: number, phone: string, n: number) {
  const now = Date.now();
  for (let i = 0; i < n; i++)
    await db()
      .insert(messages)
      .values({
        direction: i % 2 ? "inbound" : "outbound",
        kind: i % 2 ? "reply" : "individual",
        status: i % 2 ? "received" : "delivered",
        contactId,
        phone,
        content: `Message ${i}`,
        idempotencyKey: `v1-list-${crypto.randomUUID()}`,
        createdAt: new Date(now + i),
        updatedAt: new Date(now + i),
      });
}

const page = async (path: string) => {
  const res = await call(path, { headers: bearer(reader) });
  expect(res.status, path).toBe(200);
  return (await res.json()) as Page;
};

describe("GET /api/v1/contacts/{id}/messages", () => {
  it("pages a contact's messages newest first with a read key, only that contact's", async () => {
    const [a, b] = [await createTestContact(userId), await createTestContact(userId)];
    await seedMessages(a.id, a.phone, 5);
    await seedMessages(b.id, b.phone, 2);
    const first = await page(`/api/v1/contacts/${a.id}/messages?limit=2`);
    expect(first.data.map((m) => m.content)).toEqual(["Message 4", "Message 3"]);
    expect(first.data[1]).toMatchObject({ direction: "inbound", status: "received" });
    expect(first.nextCursor).toBe(first.data[1].id);
    const second = await page(`/api/v1/contacts/${a.id}/messages?limit=2&after=${first.nextCursor}`);
    expect(second.data.map((m) => m.content)).toEqual(["Message 2", "Message 1"]);
    const last = await page(`/api/v1/contacts/${a.id}/messages?limit=2&after=${second.nextCursor}`);
    expect(last).toEqual({ data: [expect.objectContaining({ content: "Message 0" })], nextCursor: null });
  });

  it("shows a waiting message as the contact will read it, and answers 404 for no such contact", async () => {
    const c = await createTestContact(userId, { firstName: "Grace" });
    await db()
      .insert(messages)
      .values({
        direction: "outbound",
        kind: "broadcast",
        status: "pending",
        contactId: c.id,
        phone: c.phone,
        content: "Hi {{firstName}}",
        idempotencyKey: `v1-list-${crypto.randomUUID()}`,
      });
    expect((await page(`/api/v1/contacts/${c.id}/messages`)).data[0].content).toBe("Hi Grace");
    const missing = await call("/api/v1/contacts/999999999/messages", { headers: bearer(reader) });
    expect(missing.status).toBe(404);
    expect(await missing.json()).toEqual({ message: "Contact not found" });
  });

  it("reads one page through messages_contact_thread_idx: a seek, no scan, no sort", async () => {
    for (const after of [null, 1000]) {
      const p = await plan(contactMessagesPage(db(), 1, { after, limit: 50 }).getSQL());
      expect(p).toMatch(/SEARCH messages USING INDEX messages_contact_thread_idx \(contact_id=\?/);
      expect(p).not.toMatch(/SCAN|TEMP B-TREE/);
    }
  });
});
