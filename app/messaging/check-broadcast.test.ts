import { eq, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { contacts } from "~/db/schema";
import { createTestContact } from "../../tests/contact-factory";
import { call, createTestUser, db, loginAs } from "../../tests/factories";
import { checkBroadcast, costOf, recipientsCsv } from "./check-broadcast.server";
import { hasOptOutWording } from "./keywords";
import { queueMessage, recordingQueue } from "../../tests/messaging-harness";

const RECIPIENT_HEADER =
  "contact_id,name,to,state_rules,time_zone,outcome,arrives_utc,arrives_contact_local,rule,segments,cost_usd".split(
    ",",
  );
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
  it("counts the segments of the text as it will go, its links as tracked links (decision 068)", async () => {
    const u = await createTestUser();
    const c = await zoned(await createTestContact(u.id), "America/Los_Angeles", "CA");
    // 153 characters as written: one segment; the tracked link (~43 characters) makes it two.
    const content = `${"Solar savings for your home this winter, ask us. ".repeat(3).slice(0, 139)} https://a.co`;
    expect(content.length).toBeLessThanOrEqual(160);
    const input = { type: "sms" as const, content, contactIds: [c.id] };
    const tracked = await checkBroadcast(db(), { ...input, publicBaseUrl: "https://helio.test" }, NOON_LA);
    expect(tracked.segments).toMatchObject({ perMessage: 2, total: 2 });
    // No public address and no link domain: the links go as written, and so does the count.
    const asWritten = await checkBroadcast(db(), { ...input, publicBaseUrl: "" }, NOON_LA);
    expect(asWritten.segments).toMatchObject({ perMessage: 1, total: 1 });
  });

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
    expect(check.skipped).toEqual({
      total: 4,
      optedOut: 1,
      notSendable: 1,
      noMarketingConsent: 0,
      missingVariable: 1,
      notFound: 1,
    });
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
    // 4 segments at the default $0.0113 = $0.0452, shown in whole cents rounded up.
    expect(long.cost).toEqual({ perSegment: "0.0113", total: "0.05" });
  });

  it("estimates the cost at the organisation's price per segment, set on the Organisation screen", async () => {
    const admin = await createTestUser({ role: "superuser" });
    const cookie = await loginAs(admin);
    const a = await zoned(await createTestContact(admin.id), "America/Los_Angeles", "CA");
    const b = await zoned(await createTestContact(admin.id), "America/Los_Angeles", "CA");
    const post = (price: string) =>
      call("/organisation", {
        method: "POST",
        cookie,
        body: new URLSearchParams({
          company: "",
          companyPhone: "",
          website: "",
          messageRetentionMonths: "18",
          smsSegmentPrice: price,
        }),
      });
    for (const bad of ["abc", "-0.01", "1.5", "0.1234567"]) {
      const res = await post(bad);
      expect(res.status, bad).toBe(400);
      expect(await res.text()).toContain("SMS price per segment: a dollar amount from 0 to 1");
    }
    expect((await post("0.0079")).status).toBe(302);
    const long = await checkSms("x".repeat(200) + " STOP", [a.id, b.id], NOON_LA);
    // 4 × $0.0079 = $0.0316 → $0.04; the exact micro-dollars never drift through floating point.
    expect(long.cost).toEqual({ perSegment: "0.0079", total: "0.04" });
    expect(costOf(1_000_000, "0.0079").total).toBe("7900.00");
    expect(costOf(3, "0.1").total).toBe("0.30");
    // Emptied, the default is back; email has no per-segment cost.
    expect((await post("")).status).toBe(302);
    expect((await checkSms("Hi, reply STOP", [a.id], NOON_LA)).cost).toEqual({ perSegment: "0.0113", total: "0.02" });
    const mail = await checkBroadcast(
      db(),
      { type: "email", subject: "Hi", content: "Hello", contactIds: [a.id] },
      NOON_LA,
    );
    expect(mail.cost).toBeNull();
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

  it("the list one row per contact (issue 29 item 4): when each copy arrives in local time, the rule that holds it, why one is skipped; another rep's contact is not found", async () => {
    const u = await createTestUser();
    const other = await createTestUser();
    const la = await zoned(
      await createTestContact(u.id, { firstName: "Lia", company: "Sunco" }),
      "America/Los_Angeles",
      "CA",
    );
    const ny = await zoned(
      await createTestContact(u.id, { firstName: "Ned", company: "Sunco" }),
      "America/New_York",
      "NY",
    );
    const fl = await zoned(
      await createTestContact(u.id, { firstName: "Flo", company: "Sunco" }),
      "America/New_York",
      "FL",
    );
    const noCompany = await zoned(await createTestContact(u.id, { firstName: "Nia" }), "America/Los_Angeles", "CA");
    const opted = await createTestContact(u.id, { company: "X" });
    await db().update(contacts).set({ optedOutAt: new Date() }).where(eq(contacts.id, opted.id));
    const theirs = await zoned(await createTestContact(other.id, { company: "Sunco" }), "America/Los_Angeles", "CA");
    await db().update(contacts).set({ ownerUserId: other.id }).where(eq(contacts.id, theirs.id));
    // Florida's three a day: Flo got three campaign texts this morning.
    const at = new Date("2026-11-24T18:00:00Z"); // 10:00 in Los Angeles, 13:00 in New York
    for (const h of [13, 14, 15]) {
      const id = await queueMessage({ db: db() }, recordingQueue(), {
        kind: "broadcast",
        phone: fl.phone,
        content: "Offer",
      });
      await db().run(
        sql`UPDATE messages SET status = 'sent', sent_at = ${Date.parse(`2026-11-24T${h}:00:00Z`)} WHERE id = ${id}`,
      );
    }
    const input = {
      type: "sms" as const,
      content: "Hi {{firstName}} from {{company}}. Reply STOP to opt out",
      contactIds: [la.id, ny.id, fl.id, noCompany.id, opted.id, theirs.id, 999_999_999],
      scheduledAt: new Date("2026-11-25T02:30:00Z"), // 18:30 in Los Angeles, 21:30 in New York
    };
    const csv = await recipientsCsv(db(), input, at, { userId: u.id, role: "user" });
    const rows = csv
      .trim()
      .split("\r\n")
      .map((l) => l.slice(1, -1).split('","'));
    expect(rows[0]).toEqual(RECIPIENT_HEADER);
    const byId = new Map(rows.slice(1).map((r) => [r[0], r]));
    expect(byId.get(String(la.id))).toEqual([
      String(la.id),
      "Lia " + la.lastName,
      `'${la.phone}`, // formula-safe: a leading "+" is quoted for spreadsheets

      "CA",
      "America/Los_Angeles",
      "Sends",
      "2026-11-25T02:30:00.000Z",
      "Nov 24, 2026, 6:30:00 PM PST",
      "",
      "1",
      "0.0113", // one segment at the default price
    ]);
    // New York follows the federal window, closed at 21:00: it arrives at 08:00 the next morning, and says why.
    expect(byId.get(String(ny.id))?.slice(5, 9)).toEqual([
      "Deferred",
      "2026-11-25T13:00:00.000Z",
      "Nov 25, 2026, 8:00:00 AM EST",
      "Deferred: outside allowed sending hours in the recipient's time zone (Federal (TCPA): 47 CFR 64.1200(c)(1))",
    ]);
    expect(byId.get(String(noCompany.id))?.slice(5, 9)).toEqual(["Skipped: missing a variable", "", "", "{{company}}"]);
    expect(byId.get(String(noCompany.id))?.[10]).toBe(""); // not sent: costs nothing
    expect(byId.get(String(opted.id))?.[5]).toBe("Skipped: opted out");
    expect(byId.get(String(theirs.id))?.slice(1, 6)).toEqual(["", "", "", "", "Not found"]);
    expect(byId.get("999999999")?.[5]).toBe("Not found");
    // Now, 13:00 in Florida: inside its window, but three marketing texts went this morning — the fourth waits for
    // the first of them to turn 24 hours old.
    const flNow = await recipientsCsv(db(), { ...input, scheduledAt: null, contactIds: [fl.id] }, at, {
      userId: u.id,
      role: "user",
    });
    const flo = flNow.trim().split("\r\n")[1].slice(1, -1).split('","');
    expect(flo.slice(5, 7)).toEqual(["Deferred", "2026-11-25T13:00:00.000Z"]);
    expect(flo[8]).toMatch(/^Deferred: Florida allows 3 marketing texts to one number per 24 hours/);
    // The summary counts the same deferral.
    const check = await checkBroadcast(db(), { ...input, scheduledAt: null, contactIds: [fl.id] }, at);
    expect(check.quietHours).toEqual({ deferred: 1, until: "2026-11-25T13:00:00.000Z" });
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
