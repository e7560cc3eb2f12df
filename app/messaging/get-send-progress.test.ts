import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { messages } from "~/db/schema";
import { createTestContact } from "../../tests/contact-factory";
import { createTestUser, db } from "../../tests/factories";
import { sendBroadcast } from "./send-broadcast.server";
import { getSendProgress } from "./get-send-progress.server";
import { appHooks } from "../../tests/messaging-harness";

const queue = { send: async () => {}, sendBatch: async () => {} } as any;

describe("getSendProgress", () => {
  it("counts a broadcast's messages by status with the reasons of skipped/failed ones", async () => {
    const u = await createTestUser();
    const cs = [await createTestContact(u.id), await createTestContact(u.id), await createTestContact(u.id)];
    const now = new Date();
    const r = await sendBroadcast(
      { db: db(), queue, now, hooks: appHooks },
      {
        type: "sms",
        content: "Hi {{firstName}}, reply STOP to opt out",
        contactIds: cs.map((c) => c.id),
        scheduledAt: new Date(now.getTime() + 86_400_000).toISOString(),
      },
      { userId: u.id, ipAddress: null },
    );
    let p = await getSendProgress(db(), r.broadcastId);
    expect(p).toMatchObject({
      id: r.broadcastId,
      recipients: 3,
      counts: { waiting: 3, queued: 0, sent: 0, delivered: 0, failed: 0, skipped: 0 },
      reasons: [],
      done: false,
    });
    const rows = await db().select({ id: messages.id }).from(messages).where(eq(messages.broadcastId, r.broadcastId));
    await db().update(messages).set({ status: "delivered" }).where(eq(messages.id, rows[0].id));
    await db()
      .update(messages)
      .set({ status: "skipped", errorMessage: "Recipient opted out" })
      .where(eq(messages.id, rows[1].id));
    await db()
      .update(messages)
      .set({ status: "failed", errorMessage: "Carrier rejected" })
      .where(eq(messages.id, rows[2].id));
    p = await getSendProgress(db(), r.broadcastId);
    expect(p.counts).toEqual({ waiting: 0, queued: 0, sent: 0, delivered: 1, failed: 1, skipped: 1 });
    expect(p.reasons).toEqual(
      expect.arrayContaining([
        { status: "skipped", reason: "Recipient opted out", count: 1 },
        { status: "failed", reason: "Carrier rejected", count: 1 },
      ]),
    );
    expect(p.done).toBe(true);
    await expect(getSendProgress(db(), 999_999_999)).rejects.toMatchObject({ code: "not_found" });
  });
});
