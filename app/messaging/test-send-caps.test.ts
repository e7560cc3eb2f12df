// Manual test sends (issue 23, decision 021): only to team members, never in the recipient's quiet hours, at most
// `testSendPerUser` an hour per user — each refused before anything is written.
import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { DEFAULT_CAP_LIMITS } from "~/caps/caps";
import { createTestContact, uniquePhone } from "../../tests/contact-factory";
import { createTestUser, db } from "../../tests/factories";
import { recordingQueue, appHooks } from "../../tests/messaging-harness";
import { NOT_TEAM_EMAIL, NOT_TEAM_PHONE } from "./check-test-recipient.server";
import { sendManualEmailTest, sendManualSmsTest } from "./create-test-send.server";

/** 18:30 UTC: 13:30 in New York, 11:30 in Phoenix. Each test pins its own hour so its counters are its own. */
const at = (hour: number) => new Date(Date.UTC(2026, 10, 18, hour, 30));
const messagesTo = async (phoneOrEmail: string) =>
  (await db().get<{ n: number }>(
    sql`SELECT count(*) AS n FROM messages WHERE phone = ${phoneOrEmail} OR email = ${phoneOrEmail}`,
  ))!.n;

async function actor(phone: string | null = uniquePhone(["602"])) {
  const user = await createTestUser();
  if (phone) await db().run(sql`UPDATE users SET phone = ${phone} WHERE id = ${user.id}`);
  return { user, phone, actor: { userId: user.id, ipAddress: null } };
}

describe("test sends go only to the team", () => {
  it("a text to a contact or a stranger is refused with a clear message; to one's own or a teammate's number it goes", async () => {
    const me = await actor();
    const mate = await actor(uniquePhone(["480"]));
    const deps = { db: db(), queue: recordingQueue(), now: at(18), hooks: appHooks };
    const contact = await createTestContact(me.user.id);
    const stranger = uniquePhone(["602"]);
    for (const phone of [contact.phone, stranger]) {
      await expect(sendManualSmsTest(deps, { phone, message: "Free solar! Call now" }, me.actor)).rejects.toMatchObject(
        { code: "validation", message: NOT_TEAM_PHONE, field: "phone" },
      );
      expect(await messagesTo(phone)).toBe(0);
    }
    await expect(
      sendManualSmsTest(deps, { phone: me.phone!.slice(2), message: "ping" }, me.actor),
    ).resolves.toMatchObject({ status: "queued", phone: me.phone });
    await expect(sendManualSmsTest(deps, { phone: mate.phone!, message: "ping" }, me.actor)).resolves.toMatchObject({
      status: "queued",
    });
  });

  it("an email to anyone but a team member's sign-in address is refused", async () => {
    const me = await actor(null);
    const deps = { db: db(), queue: recordingQueue(), now: at(18), hooks: appHooks };
    const outsider = `someone-${crypto.randomUUID().slice(0, 8)}@example.com`;
    await expect(
      sendManualEmailTest(deps, { email: outsider, subject: "Hi", content: "Deal" }, me.actor),
    ).rejects.toMatchObject({ code: "validation", message: NOT_TEAM_EMAIL });
    expect(await messagesTo(outsider)).toBe(0);
    await expect(
      sendManualEmailTest(deps, { email: me.user.email.toUpperCase(), subject: "Hi", content: "Deal" }, me.actor),
    ).resolves.toMatchObject({ status: "queued" });
  });

  it("a text in the recipient's quiet hours is refused, saying when it can go (10:55 UTC = 05:55 in New York)", async () => {
    const me = await actor(uniquePhone(["212"]));
    const deps = { db: db(), queue: recordingQueue(), now: new Date("2026-11-18T10:55:00Z"), hooks: appHooks };
    await expect(sendManualSmsTest(deps, { phone: me.phone!, message: "test" }, me.actor)).rejects.toMatchObject({
      code: "validation",
      message: "Quiet hours for this number: test texts can be sent from 8:00 AM EST",
    });
    expect(await messagesTo(me.phone!)).toBe(0);
  });

  it(`at most ${DEFAULT_CAP_LIMITS.testSendPerUser} an hour per user (429 with Retry-After, tallied); a retry with the same key is not counted`, async () => {
    const me = await actor();
    const now = new Date("2026-11-18T19:10:00Z");
    const deps = { db: db(), queue: recordingQueue(), now, hooks: appHooks };
    await sendManualSmsTest(deps, { phone: me.phone!, message: "ping 0" }, me.actor, "same-key");
    await sendManualSmsTest(deps, { phone: me.phone!, message: "ping 0" }, me.actor, "same-key"); // a client's retry
    for (let i = 1; i < DEFAULT_CAP_LIMITS.testSendPerUser; i++)
      await sendManualSmsTest(deps, { phone: me.phone!, message: `ping ${i}` }, me.actor);
    const refused = await sendManualEmailTest(
      deps,
      { email: me.user.email, subject: "one more", content: "x" },
      me.actor,
    ).catch((e) => e);
    expect(refused).toMatchObject({
      code: "rate_limited",
      retryAfter: 50 * 60,
      message: "Test send limit reached (10 per hour). Try again in 50 minutes.",
    });
    expect(await messagesTo(me.phone!)).toBe(DEFAULT_CAP_LIMITS.testSendPerUser);
    expect(
      await db().get(
        sql`SELECT hits FROM cap_counters WHERE channel = 'held:test_send' AND subject = ${`user:${me.user.id}`}`,
      ),
    ).toEqual({ hits: 1 });
    expect(
      await db().all(sql`SELECT action FROM activity_log WHERE user_id = ${me.user.id} AND action = 'held_test_send'`),
    ).toHaveLength(1);
    // The next hour has a fresh allowance.
    await expect(
      sendManualSmsTest(
        { ...deps, now: new Date("2026-11-18T20:00:00Z") },
        { phone: me.phone!, message: "later" },
        me.actor,
      ),
    ).resolves.toMatchObject({ status: "queued" });
  });
});
