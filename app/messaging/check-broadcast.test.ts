import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { contacts } from "~/db/schema";
import { createTestContact } from "../../tests/contact-factory";
import { createTestUser, db } from "../../tests/factories";
import { checkBroadcast, hasOptOutWording } from "./check-broadcast.server";
import { findLinkShortener } from "./link-shorteners";

// 20:00 UTC = noon in Los Angeles. 04:30 UTC = 20:30 in Los Angeles (inside, until 21:00), 23:30 in New York (outside).
const NOON_LA = new Date("2026-11-24T20:00:00Z");
const NIGHT_NY = new Date("2026-11-25T04:30:00Z");

async function zoned<C extends { id: number }>(c: C, timeZone: string, state: string): Promise<C> {
  await db().update(contacts).set({ timeZone, state }).where(eq(contacts.id, c.id));
  return c;
}

/** The pre-send check of an SMS broadcast to `contactIds` at `at`. */
const checkSms = (content: string, contactIds: number[], at: Date) =>
  checkBroadcast(db(), { type: "sms", content, contactIds }, at);

describe("checkBroadcast (the pre-send check)", () => {
  it("counts recipients, skipped by reason, missing variables and segments", async () => {
    const u = await createTestUser();
    const ok = await zoned(await createTestContact(u.id, { company: "Sunco" }), "America/Los_Angeles", "CA");
    const noCompany = await zoned(await createTestContact(u.id), "America/Los_Angeles", "CA");
    const opted = await createTestContact(u.id, { company: "X" });
    const unsendable = await createTestContact(u.id, { company: "Y" });
    await db().update(contacts).set({ optedOutAt: new Date() }).where(eq(contacts.id, opted.id));
    await db().update(contacts).set({ sendable: false }).where(eq(contacts.id, unsendable.id));
    const check = await checkBroadcast(
      db(),
      {
        type: "sms",
        content: "Hi {{firstName}} from {{company}}. Reply STOP to opt out",
        contactIds: [ok.id, noCompany.id, opted.id, unsendable.id, ok.id, 999_999_999],
      },
      NOON_LA,
    );
    expect(check.selected).toBe(5);
    expect(check.recipients).toBe(1);
    expect(check.skipped).toEqual({ total: 4, optedOut: 1, notSendable: 1, missingVariable: 1, notFound: 1 });
    expect(check.missingByVariable).toEqual({ company: 1 });
    expect(check.segments).toMatchObject({ maxPerMessage: 1, total: 1, encoding: "GSM-7" });
    expect(check.quietHours).toEqual({ deferred: 0, until: null });
    expect(check.warnings).toEqual([]);
  });

  it("counts segments over 160 GSM characters and UCS-2 text", async () => {
    const u = await createTestUser();
    const a = await zoned(await createTestContact(u.id), "America/Los_Angeles", "CA");
    const b = await zoned(await createTestContact(u.id), "America/Los_Angeles", "CA");
    const long = await checkSms("x".repeat(200) + " STOP", [a.id, b.id], NOON_LA);
    expect(long.segments).toMatchObject({ perMessage: 2, maxPerMessage: 2, total: 4, encoding: "GSM-7" });
    const curly = await checkSms("It’s “great” — reply STOP to opt out", [a.id], NOON_LA);
    expect(curly.segments.encoding).toBe("UCS-2");
  });

  it("counts quiet-hour deferrals and the latest time they lift", async () => {
    const u = await createTestUser();
    const ny = await zoned(await createTestContact(u.id), "America/New_York", "NY");
    const la = await zoned(await createTestContact(u.id), "America/Los_Angeles", "CA");
    const check = await checkSms("Hello, reply STOP to opt out", [ny.id, la.id], NIGHT_NY);
    expect(check.recipients).toBe(2);
    expect(check.quietHours.deferred).toBe(1);
    // 08:00 New York the next morning.
    expect(check.quietHours.until).toBe("2026-11-25T13:00:00.000Z");
  });

  it("warns about a first marketing touch without opt-out wording; refuses an SMS with a public shortener (issue 29)", async () => {
    const u = await createTestUser();
    const a = await zoned(await createTestContact(u.id), "America/Los_Angeles", "CA");
    await expect(checkSms("Big savings: https://bit.ly/abc", [a.id], NOON_LA)).rejects.toMatchObject({
      code: "validation",
      message: "Links through bit.ly are filtered by carriers: use the full link or your own domain.",
    });
    const check = await checkSms("Big savings: https://helio.example/abc", [a.id], NOON_LA);
    expect(check.firstTouch).toBe(1);
    expect(check.warnings.map((w) => w.code)).toEqual(["no_opt_out"]);
    // Email is not carrier-filtered: a warning there.
    const mail = await checkBroadcast(
      db(),
      { type: "email", subject: "Offer", content: "See tinyurl.com/x", contactIds: [a.id] },
      NOON_LA,
    );
    expect(mail.warnings.map((w) => w.code)).toContain("link_shortener");
    const fine = await checkSms("Savings at https://helio.example/offer. Reply STOP to opt out", [a.id], NOON_LA);
    expect(fine.warnings).toEqual([]);
  });

  it("email: skips contacts without an address or unsubscribed, no segments", async () => {
    const u = await createTestUser();
    const withMail = await createTestContact(u.id, { email: `c${crypto.randomUUID().slice(0, 8)}@example.com` });
    const none = await createTestContact(u.id);
    const unsub = await createTestContact(u.id, { email: `u${crypto.randomUUID().slice(0, 8)}@example.com` });
    await db().update(contacts).set({ emailUnsubscribedAt: new Date() }).where(eq(contacts.id, unsub.id));
    const check = await checkBroadcast(
      db(),
      { type: "email", subject: "Hi {{firstName}}", content: "Body", contactIds: [withMail.id, none.id, unsub.id] },
      NOON_LA,
    );
    expect(check.recipients).toBe(1);
    expect(check.skipped).toMatchObject({ optedOut: 1, notSendable: 1 });
    expect(check.segments.total).toBe(0);
  });

  it("helpers: shorteners and opt-out wording", () => {
    expect(findLinkShortener("see tinyurl.com/x")).toBe("tinyurl.com");
    expect(findLinkShortener("go to https://t.co/abc now")).toBe("t.co");
    expect(findLinkShortener("visit https://helio.example/t.co")).toBeNull();
    expect(findLinkShortener("about.com")).toBeNull();
    expect(hasOptOutWording("Reply STOP to opt out")).toBe(true);
    expect(hasOptOutWording("Text us to unsubscribe")).toBe(true);
    expect(hasOptOutWording("Don't stopper")).toBe(false);
  });
});
