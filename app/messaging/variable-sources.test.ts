import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { sendBroadcast } from "./send-broadcast.server";
import { sendIndividual } from "./send-individual.server";
import { sendManualSmsTest } from "./create-test-send.server";
import { sendMessages } from "./consume-send-batch.server";
import { saveOrgSettings } from "./org-settings.server";
import { renderTemplate, requiredVariables } from "./render";
import { parseCustomFields, serializeCustomFields, variableValues } from "./variable-values";
import { createTestUser, db, SEES_ALL } from "../../tests/factories";
import { parseContactsCsv } from "~/contacts/csv-import";
import { toContactValues } from "~/contacts/contact-row.server";
import { upsertContactChunk } from "~/contacts/upsert-contacts.server";
import { updateContact } from "~/contacts/update-contact.server";
import { contactSchema } from "~/contacts/contact-schema";
import { createTestContact, uniquePhone } from "../../tests/contact-factory";
import { DAYTIME, pipeline, appHooks, asWritten } from "../../tests/messaging-harness";

const setCustom = (id: number, fields: Record<string, string>) =>
  db().run(sql`UPDATE contacts SET custom_fields = ${serializeCustomFields(fields)} WHERE id = ${id}`);
const setPhone = (userId: number, phone: string | null) =>
  db().run(sql`UPDATE users SET phone = ${phone} WHERE id = ${userId}`);
const messageCount = async () => (await db().get<{ n: number }>(sql`SELECT count(*) AS n FROM messages`))!.n;
const broadcastCount = async () => (await db().get<{ n: number }>(sql`SELECT count(*) AS n FROM broadcasts`))!.n;

describe("fallbacks {{name|fallback}}", () => {
  it("uses the value when present and the fallback when missing; a fallback token is not required", () => {
    expect(renderTemplate("Hi {{firstName|there}}!", { firstName: "Ana" }).text).toBe("Hi Ana!");
    expect(renderTemplate("Hi {{firstName|there}}!", { firstName: "  " })).toEqual({
      text: "Hi there!",
      unknown: [],
      missing: [],
    });
    expect(renderTemplate("Hi {{ firstName | there }}!", {}).text).toBe("Hi there!");
    expect(requiredVariables("{{firstName|there}} {{city}} {{firstName}}")).toEqual(["city", "firstName"]);
    expect(requiredVariables("{{firstName|there}} {{firstName|friend}}")).toEqual([]);
    // An empty fallback is no fallback: the token stays required.
    expect(requiredVariables("{{firstName|}}")).toEqual(["firstName"]);
  });
});

describe("variableValues: every source", () => {
  it("fills contact, custom fields, sender, organisation and campaign variables", () => {
    const values = variableValues({
      contact: {
        firstName: "Ana",
        lastName: "Lee",
        phone: "+14155550100",
        company: null,
        customFields: JSON.stringify({
          roofSize: "1,800 sq ft",
          appointmentDate: "2026-12-03",
          appointmentTime: "15:30",
          bogus: "x",
        }),
      },
      sender: { firstName: "Sarah", lastName: "Miller", email: "sarah@helio.example", phone: "+15555550123" },
      org: { company: "Helio Solar", companyPhone: "+15559876543", website: "https://helio.example" },
      campaign: { campaignName: "Spring", promoCode: "SUN26", offerExpiration: "2026-12-31" },
    });
    const r = renderTemplate(
      "{{fullName}} {{company}} {{companyPhone}} {{website}} {{salesRep}} {{salesRepEmail}} {{salesRepPhone}} {{roofSize}} {{appointmentDateTime}} {{campaignName}} {{promoCode}} {{offerExpiration}} {{systemSize|TBD}}",
      values,
    );
    expect(r.text).toBe(
      "Ana Lee Helio Solar +15559876543 https://helio.example Sarah Miller sarah@helio.example +15555550123 1,800 sq ft December 3, 2026 at 3:30 PM Spring SUN26 December 31, 2026 TBD",
    );
    expect(r.missing).toEqual([]);
    // The contact's own company wins over the organisation's name.
    expect(variableValues({ contact: { company: "ABC Corp" }, org: { company: "Helio Solar" } }).company).toBe(
      "ABC Corp",
    );
    expect(parseCustomFields("not json")).toEqual({});
    expect(parseCustomFields(JSON.stringify({ roofSize: " ", systemSize: 7 }))).toEqual({ systemSize: "7" });
  });

  it("renders currentDate/currentTime in the contact's time zone", () => {
    const now = new Date("2026-11-24T06:30:00Z");
    expect(renderTemplate("{{currentDate}} {{currentTime}}", {}, { now, timeZone: "America/New_York" }).text).toBe(
      "November 24, 2026 1:30 AM",
    );
    expect(renderTemplate("{{currentDate}} {{currentTime}}", {}, { now, timeZone: "America/Los_Angeles" }).text).toBe(
      "November 23, 2026 10:30 PM",
    );
  });
});

describe("sends render variables from their sources", () => {
  it("an individual SMS carries the sender, organisation and custom-field values", async () => {
    const { deps, twilio, queue } = await pipeline({ clock: () => DAYTIME });
    // The contact's and the sender's phone, email and names share column names in the consumer's joined read: each
    // must still reach its own variable.
    const user = await createTestUser({
      firstName: "Sarah",
      lastName: "Miller",
      email: `sarah.${crypto.randomUUID().slice(0, 8)}@helio.example`,
    });
    await setPhone(user.id, "+15555550123");
    await saveOrgSettings(deps.db, { companyPhone: "+15559876543", website: "https://helio.example" }, DAYTIME);
    const contact = await createTestContact(user.id, {
      firstName: "Rosa",
      lastName: "Lopez",
      email: "rosa@example.com",
      state: "AZ",
    });
    await setCustom(contact.id, { systemSize: "7.2 kW", meetingLink: "https://meet.example.com/x" });
    await sendIndividual(
      { db: deps.db, queue, now: DAYTIME, hooks: appHooks },
      {
        contactId: contact.id,
        type: "sms",
        message:
          "Hi {{firstName}} {{lastName}} ({{phone}}, {{email}}), {{salesRep}} ({{salesRepPhone}}, {{salesRepEmail}}) here: {{systemSize}} at {{meetingLink}}. {{companyPhone}} {{website}} {{promoCode|no code}}",
      },
      { userId: user.id, role: "superuser", ipAddress: null },
    );
    await sendMessages(queue.takeSendJobs(), deps);
    const calls = await twilio.calls();
    // Its links went as tracked links (decision 068); what the text says is the same.
    expect(calls.map((c) => c.body)).toHaveLength(1);
    expect(calls[0].body).toContain("https://helio.test/l/");
    expect(await Promise.all(calls.map((c) => asWritten(c.body)))).toEqual([
      `Hi Rosa Lopez (${contact.phone}, rosa@example.com), Sarah Miller (+15555550123, ${user.email}) here: 7.2 kW at https://meet.example.com/x. +15559876543 https://helio.example no code`,
    ]);
  });
});

describe("a send that would leave a token unfilled is refused before anything is written", () => {
  it("a broadcast names the token and how many recipients lack it; nothing is written", async () => {
    const { deps, queue } = await pipeline({ clock: () => DAYTIME });
    const user = await createTestUser();
    const a = await createTestContact(user.id);
    const b = await createTestContact(user.id);
    const c = await createTestContact(user.id);
    await setCustom(a.id, { roofSize: "1,800 sq ft" });
    const before = { m: await messageCount(), b: await broadcastCount() };
    const send = (content: string) =>
      sendBroadcast(
        { db: deps.db, queue, now: DAYTIME, hooks: appHooks },
        { type: "sms", content, contactIds: [a.id, b.id, c.id] },
        { userId: user.id, ipAddress: null },
      );

    await expect(send("Your roof: {{roofSize}}")).rejects.toMatchObject({
      code: "validation",
      message: "{{roofSize}} has no value for 2 of 3 recipients; fill it in or add a fallback such as {{roofSize|…}}",
      details: { missing: { roofSize: 2 }, recipients: 3 },
    });
    await expect(send("{{roofSize}} {{promoCode}} {{salesRepPhone}}")).rejects.toMatchObject({
      details: { missing: { roofSize: 2, promoCode: 3, salesRepPhone: 3 }, recipients: 3 },
    });
    expect(await messageCount()).toBe(before.m);
    expect(await broadcastCount()).toBe(before.b);
    expect(queue.takeSendJobs()).toEqual([]);

    // With a fallback the same broadcast goes out.
    const ok = await send("Your roof: {{roofSize|your roof}}");
    expect(ok.recipients).toBe(3);
    expect(await messageCount()).toBe(before.m + 3);
  });

  it("a test SMS to a number without a contact refuses contact variables; sender variables need the profile", async () => {
    const { deps, queue } = await pipeline({ clock: () => DAYTIME });
    const user = await createTestUser();
    await setPhone(user.id, null);
    const before = await messageCount();
    // Test texts go only to team members (issue 23): a teammate's number, which no contact has.
    const teammate = await createTestUser();
    const to = uniquePhone(["602"]);
    await setPhone(teammate.id, to);
    const send = (message: string) =>
      sendManualSmsTest(
        { db: deps.db, queue, now: DAYTIME, hooks: appHooks },
        { phone: to, message },
        { userId: user.id, ipAddress: null },
      );
    await expect(send("Hi {{firstName}}")).rejects.toMatchObject({ details: { missing: { firstName: 1 } } });
    await expect(send("Call {{salesRepPhone}}")).rejects.toMatchObject({
      message: expect.stringContaining("{{salesRepPhone}} has no value for 1 of 1 recipient"),
    });
    expect(await messageCount()).toBe(before);
    await setPhone(user.id, "+15555550199");
    await expect(send("Hi {{firstName|there}}, call {{salesRepPhone}} - {{salesRep}}")).resolves.toMatchObject({
      status: "queued",
    });
  });
});

describe("custom fields: CSV columns of the same names and the contact form", () => {
  it("imports roofSize/appointmentDate columns, merges on re-import, and the form's update replaces them", async () => {
    const user = await createTestUser();
    const phone = uniquePhone();
    const parsed = parseContactsCsv(
      `First Name,Last Name,Phone,Roof Size,appointmentDate,meeting_link\nAna,Lee,${phone},"1,800 sq ft",2026-12-03,\n`,
    );
    expect(parsed.rows[0].customFields).toEqual({ roofSize: "1,800 sq ft", appointmentDate: "2026-12-03" });
    await upsertContactChunk(
      db(),
      parsed.rows.map((r) => toContactValues(r)),
      { mode: "skip", userId: user.id, now: new Date() },
    );
    const stored = async () =>
      (await db().get<{ id: number; custom_fields: string | null }>(
        sql`SELECT id, custom_fields FROM contacts WHERE phone = ${phone}`,
      ))!;
    expect(parseCustomFields((await stored()).custom_fields)).toEqual({
      roofSize: "1,800 sq ft",
      appointmentDate: "2026-12-03",
    });

    const again = parseContactsCsv(`First Name,Last Name,Phone,systemSize\nAna,Lee,${phone},7.2 kW\n`);
    await upsertContactChunk(
      db(),
      again.rows.map((r) => toContactValues(r)),
      { mode: "update", userId: user.id, now: new Date() },
    );
    expect(parseCustomFields((await stored()).custom_fields)).toEqual({
      roofSize: "1,800 sq ft",
      appointmentDate: "2026-12-03",
      systemSize: "7.2 kW",
    });

    const { id } = await stored();
    await updateContact(
      db(),
      id,
      contactSchema.parse({ firstName: "Ana", lastName: "Lee", phone }),
      SEES_ALL,
      new Date(),
    );
    expect(parseCustomFields((await stored()).custom_fields)).toHaveProperty("systemSize", "7.2 kW"); // left out: kept
    await updateContact(
      db(),
      id,
      contactSchema.parse({
        firstName: "Ana",
        lastName: "Lee",
        phone,
        customFields: { roofSize: "2,000 sq ft", systemSize: "" },
      }),
      SEES_ALL,
      new Date(),
    );
    expect(parseCustomFields((await stored()).custom_fields)).toEqual({ roofSize: "2,000 sq ft" });
  });
});
