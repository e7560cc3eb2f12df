import { eq, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { senderPacing } from "~/db/schema";
import { senderPausedNote } from "~/messaging/sender-pause";
import { uniquePhone } from "../../../../tests/contact-factory";
import { call, createTestUser, db, loginAs } from "../../../../tests/factories";
import { queueMessage, recordingQueue } from "../../../../tests/messaging-harness";

// The Compliance report's "Sending numbers" card through the Worker, as a browser without JavaScript uses it.
describe("Compliance: sending numbers (no JS)", () => {
  it("shows a paused number with its reason; a superuser resumes it and its held texts go back to the queue; a standard user is refused", async () => {
    const admin = await createTestUser({ role: "superuser" });
    const cookie = await loginAs(admin);
    const sender = uniquePhone();
    const reason = `Carriers filtered 12 of the 40 texts ${sender} sent today`;
    await db().insert(senderPacing).values({ sender, marketingPausedAt: new Date(), marketingPausedReason: reason });
    const held = await queueMessage({ db: db() }, recordingQueue(), { kind: "broadcast", content: "Spring offer" });
    await db().run(
      sql`UPDATE messages SET status = 'held', error_message = ${senderPausedNote(sender)} WHERE id = ${held}`,
    );

    const page = await (await call("/compliance", { cookie })).text();
    expect(page).toContain(sender);
    expect(page).toContain("Marketing paused");
    expect(page).toContain(reason);

    const post = (form: Record<string, string>, c = cookie) =>
      call("/compliance", { method: "POST", body: new URLSearchParams(form), cookie: c, redirect: "manual" });
    const rep = await createTestUser({ role: "user" });
    expect((await post({ intent: "resume-sender", sender }, await loginAs(rep))).status).toBe(403);

    const resumed = await post({ intent: "resume-sender", sender });
    expect(resumed.status).toBe(302);
    expect(resumed.headers.get("Location")).toBe("/compliance#sending-numbers");
    const row = await db().select().from(senderPacing).where(eq(senderPacing.sender, sender)).get();
    expect(row?.marketingPausedAt).toBeNull();
    const msg = await db().get<{ status: string }>(sql`SELECT status FROM messages WHERE id = ${held}`);
    expect(msg?.status).toBe("queued");
    const log = await db().get<{ user_id: number }>(
      sql`SELECT user_id FROM activity_log WHERE action = 'sending_number_resumed' AND json_extract(details, '$.sender') = ${sender}`,
    );
    expect(log?.user_id).toBe(admin.id);

    // A second press: the number is no longer paused, said as a 404 reply, nothing changes.
    const again = await post({ intent: "resume-sender", sender });
    expect(again.status).toBe(404);
    expect(await again.text()).toContain("That number is not paused");
  });
});
