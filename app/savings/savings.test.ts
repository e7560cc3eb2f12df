// The Solar variables from public data (issue 28 item 4, decision 074): through the real consumer to a fake Twilio,
// through the contact page's form, and through the Organisation settings.
import { eq, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { contacts, orgSettings } from "~/db/schema";
import { call, createTestUser, db, loginAs } from "../../tests/factories";
import { createTestContact, seedContacts } from "../../tests/contact-factory";
import { recordD1, measureD1 } from "../../tests/d1-recorder";
import { appHooks, DAYTIME, pipeline, queueMessage } from "../../tests/messaging-harness";
import { sendMessages } from "~/messaging/consume-send-batch.server";
import { assertVariablesFilled } from "~/messaging/check-send-request.server";
import { checkBroadcast } from "~/messaging/check-broadcast.server";
import { smsSegments } from "~/messaging/segments";
import { COST_PER_WATT_KEY } from "./savings-data.server";

const QUOTE =
  "{{firstName}}, a {{systemSize}} system saves about {{yearOneSavings}} in year one, {{estimatedSavings}} over 25 years; payback {{paybackPeriod}}; incentives {{incentiveAmount}}.";

async function homeIn(
  state: string | null,
  usage: { monthlyBillCents?: number | null; monthlyKwh?: number | null } = {},
) {
  const owner = await createTestUser();
  const c = await createTestContact(owner.id, { firstName: "Rosa", ...(state ? { state } : {}) });
  await db()
    .update(contacts)
    .set({
      ownerUserId: owner.id,
      monthlyBillCents: usage.monthlyBillCents ?? null,
      monthlyKwh: usage.monthlyKwh ?? null,
    })
    .where(eq(contacts.id, c.id));
  return { owner, contact: c };
}

async function textOnce(contact: { id: number; phone: string }, content = QUOTE) {
  const { deps, twilio, queue } = await pipeline({ clock: () => DAYTIME });
  await queueMessage(deps, queue, { kind: "campaign", contactId: contact.id, phone: contact.phone, content }, DAYTIME);
  await sendMessages(queue.takeSendJobs(), deps);
  const sent = await twilio.calls();
  expect(sent).toHaveLength(1);
  return sent[0].body as string;
}

describe("savings variables at send time", () => {
  it("a campaign text quotes the estimate from the contact's bill and its state's figures (California, $200)", async () => {
    const { contact } = await homeIn("CA", { monthlyBillCents: 20_000 });
    await db().delete(orgSettings).where(eq(orgSettings.key, COST_PER_WATT_KEY));
    // The hand-computed California example of estimate-savings.test.ts, against the shipped table.
    expect(await textOnce(contact)).toBe(
      "Rosa, a 4.5 kW system saves about $2,400 in year one, $76,800 over 25 years; payback 6.2 years; incentives $0.",
    );
  });

  it("a value typed on the contact wins; the rest are computed; a contact of unknown state gets the US figures", async () => {
    const { contact } = await homeIn(null, { monthlyKwh: 1000 });
    await db()
      .update(contacts)
      .set({ customFields: JSON.stringify({ yearOneSavings: "$1,234" }) })
      .where(eq(contacts.id, contact.id));
    const body = await textOnce(contact);
    // US row: 16.04¢, 1,526 kWh/kW → 12,000 kWh / 1,526 = 7.9 kW.
    expect(body).toContain("a 7.9 kW system saves about $1,234 in year one");
  });

  it("reads only the contacts it quotes and their states' rows, never a table", async () => {
    await seedContacts(40, () => ({ state: "TX" }));
    const { contact } = await homeIn("TX", { monthlyKwh: 1500 });
    // Restored after: a wrapper left installed would count every later file's statements twice.
    const restore = recordD1((await import("cloudflare:test")).env.DB);
    const { statements } = await measureD1(() => textOnce(contact)).finally(restore);
    const ours = statements.filter((s) => /solar_state_data|monthly_bill_cents/.test(s.sql));
    // The contact by key (D1 counts the json_each row too), then TX and US by key: a scan would read the 40+ contacts
    // or the table's 52 rows.
    expect(ours.map((s) => s.read)).toEqual([3, 4]);
  });

  it("the pre-send check counts the segments of the copy the consumer will send, estimate filled in", async () => {
    const { contact } = await homeIn("CA", { monthlyBillCents: 20_000 });
    await db().delete(orgSettings).where(eq(orgSettings.key, COST_PER_WATT_KEY));
    // 160 GSM-7 characters or fewer with the figures blank, more once they are filled in.
    const content = `${QUOTE} Reply YES for a site visit this week, or STOP to opt out.`;
    const sent = await textOnce(contact, content);
    expect(smsSegments(sent).segments).toBe(2);
    const input = { type: "sms" as const, content, contactIds: [contact.id], scheduledAt: DAYTIME };
    const check = await checkBroadcast(db(), { ...input, variables: appHooks.variables }, DAYTIME);
    expect(check.recipients).toBe(1);
    expect(check.segments.total).toBe(2);
    // Without the providers the same copy renders blank where the figures go: one segment, the count the check gave.
    expect((await checkBroadcast(db(), input, DAYTIME)).segments.total).toBe(1);
  });

  it("a Quick Send of a savings variable is never refused as missing: the estimate fills it", async () => {
    const { owner, contact } = await homeIn("MA");
    await expect(
      assertVariablesFilled(db(), owner.id, { channel: "sms", contactIds: [contact.id] }, "{{estimatedSavings}}"),
    ).resolves.toBeUndefined();
  });
});

describe("the contact page's Savings card", () => {
  it("saves the home's figures (JS off: a plain form), shows the estimate with its basis, refuses a bad bill", async () => {
    const { owner, contact } = await homeIn("CA");
    const cookie = await loginAs(owner);
    const post = (fields: Record<string, string>) =>
      call(`/contacts/${contact.id}/savings`, { method: "POST", cookie, body: new URLSearchParams(fields) });

    const bad = await post({ monthlyBill: "lots", monthlyKwh: "" });
    expect(bad.status).toBe(302);
    const toast = /helio_toast=([^.;]+)/.exec(bad.headers.get("Set-Cookie") ?? "")?.[1] ?? "";
    expect(JSON.parse(atob(decodeURIComponent(toast)))).toMatchObject({
      title: "Figures not saved",
      description: "Monthly bill: a dollar amount from 1 to 5,000, e.g. 182.50",
    });
    expect(
      await db().select({ b: contacts.monthlyBillCents }).from(contacts).where(eq(contacts.id, contact.id)).get(),
    ).toEqual({ b: null });

    const ok = await post({ monthlyBill: "$200.00", monthlyKwh: "", utilityName: "PG&E" });
    expect(ok.status).toBe(302);
    expect(
      await db()
        .select({ b: contacts.monthlyBillCents, k: contacts.monthlyKwh, u: contacts.utilityName })
        .from(contacts)
        .where(eq(contacts.id, contact.id))
        .get(),
    ).toEqual({ b: 20_000, k: null, u: "PG&E" });
    const page = await (await call(`/contacts/${contact.id}`, { cookie })).text();
    expect(page).toContain("$2,400");
    expect(page).toContain("(the contact&#x27;s bill at 29.51¢/kWh)");
    expect(page).toContain("EIA 2023");
    expect(
      await db().get(
        sql`SELECT count(*) AS n FROM activity_log WHERE action = 'set_home_usage' AND details LIKE ${`%"contactId":${contact.id}%`}`,
      ),
    ).toEqual({ n: 1 });
  });

  it("another rep's contact is a 404 and nothing changes", async () => {
    const { contact } = await homeIn("CA");
    const stranger = await createTestUser();
    const res = await call(`/contacts/${contact.id}/savings`, {
      method: "POST",
      cookie: await loginAs(stranger),
      body: new URLSearchParams({ monthlyBill: "100" }),
    });
    // Owned by someone else: another standard user does not see it (decision 048).
    expect(res.status).toBe(404);
    expect(
      await db().select({ b: contacts.monthlyBillCents }).from(contacts).where(eq(contacts.id, contact.id)).get(),
    ).toEqual({ b: null });
  });
});

describe("the Organisation's savings assumptions", () => {
  it("a superuser sets the price per watt and the next text's payback uses it; a bad rate is refused beside the field", async () => {
    const admin = await createTestUser({ role: "superuser" });
    const cookie = await loginAs(admin);
    const save = (fields: Record<string, string>) =>
      call("/organisation", { method: "POST", cookie, body: new URLSearchParams({ intent: "savings", ...fields }) });
    const bad = await save({ escalationPct: "40", costPerWatt: "" });
    expect(bad.status).toBe(400);
    expect(await bad.text()).toContain("Yearly rise in power prices: a percentage from 0 to 10");

    expect((await save({ escalationPct: "2.5", costPerWatt: "2.50" })).status).toBe(302);
    const { contact } = await homeIn("CA", { monthlyBillCents: 20_000 });
    // 4,500 W × $2.50 = $11,250: five years save $12,486.8, so 4 + (11,250 − 9,890.2) / 2,596.6 = 4.5 years.
    expect(await textOnce(contact, "{{paybackPeriod}}")).toBe("4.5 years");
    await save({ escalationPct: "2.5", costPerWatt: "" });
  });

  it("a superuser sets a state's incentive: its homes' estimates count it and say where it comes from; 0 clears it", async () => {
    const admin = await createTestUser({ role: "superuser" });
    const cookie = await loginAs(admin);
    const save = (fields: Record<string, string>) =>
      call("/organisation", { method: "POST", cookie, body: new URLSearchParams({ intent: "incentive", ...fields }) });
    const bad = await save({ incentiveState: "VT", incentiveDollars: "lots" });
    expect(bad.status).toBe(400);
    expect(await bad.text()).toContain("Incentive: whole dollars from 0 to 50,000");
    expect((await save({ incentiveState: "ZZ", incentiveDollars: "100" })).status).toBe(400);
    try {
      expect(
        (await save({ incentiveState: "VT", incentiveDollars: "$1,200", incentiveNote: "Test rebate" })).status,
      ).toBe(302);
      const { contact } = await homeIn("VT", { monthlyBillCents: 15_000 });
      expect(await textOnce(contact, "{{incentiveAmount}}")).toBe("$1,200");
      const page = await (await call("/organisation", { cookie })).text();
      expect(page).toContain("VT $1,200 (Test rebate)");
    } finally {
      expect((await save({ incentiveState: "VT", incentiveDollars: "0" })).status).toBe(302);
    }
    const { contact } = await homeIn("VT", { monthlyBillCents: 15_000 });
    expect(await textOnce(contact, "{{incentiveAmount}}")).toBe("$0");
  });
});
