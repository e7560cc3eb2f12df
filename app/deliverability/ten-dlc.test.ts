import { env } from "cloudflare:test";
import { eq, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { orgSettings, senderRegistrations, templates, users } from "~/db/schema";
import { createTwilioSms } from "~/messaging/providers/twilio.server";
import { createTestContact, uniquePhone } from "../../tests/contact-factory";
import { newFakeTwilioAccount, type FakeTwilioAccount } from "../../tests/fakes/control";
import { call, createTestUser, db, loginAs } from "../../tests/factories";
import { fetchWith } from "../../tests/worker-events";
import {
  checkRegistration,
  draftRegistration,
  isTenDlcNumber,
  registrationsFrom,
  unregisteredSenderWarning,
  type TenDlcInput,
} from "./ten-dlc";
import { refreshSenderRegistrations, unregisteredSenderWarnings } from "./ten-dlc-readiness.server";

const MG = (n: number) => "MG" + String(n).padStart(32, "0");
const input = (o: Partial<TenDlcInput> = {}): TenDlcInput => ({
  company: "Sunny Solar",
  companyPhone: "(916) 555-0100",
  website: "https://sunnysolar.example",
  samples: [
    { source: "Template “Intro”", text: "Hi John, it's Ana from Sunny Solar. Want your free solar savings estimate?" },
    {
      source: "Step “Follow-up”",
      text: "Sunny Solar: John, still curious about cutting your power bill? Reply STOP to opt out.",
    },
  ],
  sendsAppointmentTexts: false,
  ...o,
});
const messages = (o: Partial<TenDlcInput> = {}) =>
  checkRegistration(draftRegistration(input(o)), input(o).company).map((f) => `${f.level}: ${f.message}`);

describe("10DLC draft and its check (decision 067)", () => {
  it("drafts the campaign from the settings and the real copy; nothing to reject in a complete one", () => {
    const d = draftRegistration(input({ sendsAppointmentTexts: true }));
    expect(d.brand).toEqual({
      displayName: "Sunny Solar",
      website: "https://sunnysolar.example",
      phone: "(916) 555-0100",
      vertical: "ENERGY",
    });
    expect(d.campaign.useCase).toBe("MIXED");
    expect(d.campaign.description).toContain("appointment confirmations and reminders");
    expect(d.campaign.messageFlow).toContain("on https://sunnysolar.example");
    expect(d.campaign.samples.map((s) => s.text)).toEqual(input().samples.map((s) => s.text));
    expect(d.campaign.optOutKeywords).toContain("STOP");
    expect(d.campaign.optOutMessage).toContain("Sunny Solar");
    expect(d.campaign.helpMessage).toContain("(916) 555-0100");
    expect(d.campaign.hasEmbeddedLinks).toBe(false);
    expect(messages()).toEqual([]);
  });

  it("quotes the lead form's consent wording; the superuser's own description wins over the draft", () => {
    const consent = "I agree to receive marketing texts from Sunny Solar at the number provided.";
    expect(draftRegistration(input({ consentText: consent })).campaign.messageFlow).toContain(`"${consent}"`);
    const own = draftRegistration(input({ optInDescription: "Homeowners text SOLAR to our number to opt in." }));
    expect(own.campaign).toMatchObject({
      messageFlow: "Homeowners text SOLAR to our number to opt in.",
      messageFlowWritten: true,
    });
  });

  it("gives the first sample the opt-out line when none of the real copy has one", () => {
    const d = draftRegistration(
      input({
        samples: [
          { source: "Template “Intro”", text: "Hi John, want your free solar estimate?" },
          { source: "b", text: "John, your Sunny Solar quote is ready to review." },
        ],
      }),
    );
    expect(d.campaign.samples[0]).toEqual({
      source: "Template “Intro” (opt-out line added)",
      text: "Sunny Solar: Hi John, want your free solar estimate? Reply STOP to opt out.",
    });
    expect(d.campaign.samples[1]!.text).toBe("John, your Sunny Solar quote is ready to review.");
    // The copy that goes out still lacks it: said, beside the draft.
    expect(checkRegistration(d, "Sunny Solar").map((f) => `${f.level}: ${f.message}`)).toContain(
      "warning: None of your texts says how to opt out: the draft added “Reply STOP to opt out.” to sample 1 — add it to your templates and campaign steps too.",
    );
    // A registration whose samples (edited by hand) show no opt-out at all is an error.
    const bare = {
      ...d,
      campaign: {
        ...d.campaign,
        samples: d.campaign.samples.map((s, i) =>
          i ? s : { ...s, text: "Sunny Solar: Hi John, want your free solar estimate?" },
        ),
      },
    };
    expect(checkRegistration(bare, "Sunny Solar").map((f) => f.message)).toContain(
      "No sample says how to opt out: add “Reply STOP to opt out.” to at least one of them.",
    );
  });

  it("keeps five distinct samples, whitespace folded", () => {
    const many = Array.from({ length: 8 }, (_, i) => ({
      source: `s${i}`,
      text: `Sunny Solar  note ${i % 6}\nReply STOP to opt out`,
    }));
    const d = draftRegistration(input({ samples: many }));
    expect(d.campaign.samples.map((s) => s.source)).toEqual(["s0", "s1", "s2", "s3", "s4"]);
    expect(d.campaign.samples[0]!.text).toBe("Sunny Solar note 0 Reply STOP to opt out");
  });

  it("flags what reviewers reject", () => {
    expect(messages({ company: "" })).toContain(
      "error: No company name: set it under Organisation — reviewers reject samples that do not name the business.",
    );
    expect(messages({ website: "" })[0]).toMatch(/^warning: No website/);
    expect(messages({ samples: [input().samples[1]!] })).toContain(
      "error: Twilio needs at least 2 sample messages: write SMS templates or campaign steps first.",
    );
    expect(messages({ optInDescription: "We text people who want solar, and that is that." })).toEqual([
      "error: The opt-in description does not say how homeowners give consent (a form, a checkbox, a keyword).",
      "warning: The opt-in description should say what the form discloses: message frequency, “Msg & data rates may apply” and STOP to opt out.",
    ]);
    expect(messages({ optInDescription: "Too short, opt in." })).toContain(
      "error: The opt-in description needs 40 to 2048 characters.",
    );
    const short = input().samples.concat({
      source: "c",
      text: "Sunny Solar: bit.ly/abc123 see your quote, reply STOP",
    });
    expect(messages({ samples: short })).toContain(
      "error: Sample 3 links through bit.ly: carriers reject public link shorteners; use your own domain.",
    );
    const unnamed = input().samples.concat({ source: "c", text: "Your quote is ready, reply STOP to opt out" });
    expect(messages({ samples: unnamed })).toContain(
      "warning: Sample 3 does not name Sunny Solar: reviewers look for the brand in the messages.",
    );
    expect(messages({ samples: input().samples.concat({ source: "c", text: "Sunny Solar hi" }) })).toContain(
      "error: Sample 3 must have 20 to 1024 characters.",
    );
  });
});

describe("registration status", () => {
  it("a US local number is 10DLC; toll-free, foreign and short codes are not", () => {
    expect(isTenDlcNumber("+19165550100")).toBe(true);
    for (const n of ["+18885550100", "+18335550100", "+447700900123", "12345", MG(1)])
      expect(isTenDlcNumber(n)).toBe(false);
  });

  it("each sender under its best campaign; a sender no service holds has none", () => {
    const rows = registrationsFrom(
      [
        {
          sid: MG(1),
          name: "Sales",
          numbers: ["+19165550101", "+19165550102"],
          campaigns: [
            { sid: "QE1", status: "FAILED", useCase: "MARKETING" },
            { sid: "QE2", status: "VERIFIED", useCase: "MIXED" },
          ],
        },
        {
          sid: MG(2),
          name: "New",
          numbers: ["+19165550102", "+19165550103"],
          campaigns: [{ sid: "QE3", status: "IN_PROGRESS", useCase: "MARKETING" }],
        },
      ],
      ["+19165550101", "+19165550109"],
    );
    const by = Object.fromEntries(rows.map((r) => [r.sender, [r.status, r.campaignSid]]));
    expect(by).toEqual({
      [MG(1)]: ["VERIFIED", "QE2"],
      [MG(2)]: ["IN_PROGRESS", "QE3"],
      "+19165550101": ["VERIFIED", "QE2"],
      "+19165550102": ["VERIFIED", "QE2"],
      "+19165550103": ["IN_PROGRESS", "QE3"],
      "+19165550109": ["NONE", null],
    });
  });

  it("warns for a 10DLC number or service without a verified campaign and a toll-free number without an approved verification, never for a verified one", () => {
    expect(unregisteredSenderWarning("+19165550101", { status: "VERIFIED" }, true)).toBeNull();
    expect(unregisteredSenderWarning("+18885550100", { status: "VERIFIED" }, true)).toBeNull();
    expect(unregisteredSenderWarning("+18885550100", null, true)).toMatch(/no toll-free verification.*30032/);
    expect(unregisteredSenderWarning("+447700900123", null, true)).toBeNull();
    expect(unregisteredSenderWarning("+19165550101", null, false)).toMatch(/registration has not been checked yet/);
    expect(unregisteredSenderWarning("+19165550101", { status: "NONE" }, true)).toMatch(
      /has no registered 10DLC campaign/,
    );
    expect(unregisteredSenderWarning(MG(3), { status: "IN_PROGRESS" }, true)).toMatch(
      /campaign is in progress, not verified/,
    );
  });
});

describe("checking with Twilio (fake Twilio on loopback)", () => {
  const setUp = async () => {
    const fake = await newFakeTwilioAccount();
    const from = uniquePhone();
    const repNumber = uniquePhone();
    const rep = await createTestUser();
    await db().update(users).set({ smsSender: repNumber }).where(eq(users.id, rep.id));
    await fake.setA2p([
      { sid: MG(7), name: "Helio", numbers: [from], campaigns: [{ status: "VERIFIED", useCase: "MIXED" }] },
      { sid: MG(8), numbers: [], campaigns: [] },
    ]);
    return { fake, from, repNumber };
  };
  const twilioEnv = (fake: FakeTwilioAccount, from: string): Env => ({
    ...env,
    PUBLIC_BASE_URL: "https://helio.test",
    TWILIO_ACCOUNT_SID: fake.accountSid,
    TWILIO_AUTH_TOKEN: fake.authToken,
    TWILIO_FROM_NUMBER: from,
    TWILIO_API_BASE: fake.url,
  });

  it("reads the services' numbers and campaigns, stores every sender's status, and warns for the unregistered one", async () => {
    const { fake, from, repNumber } = await setUp();
    const sms = createTwilioSms(fake.config({ from }));
    expect(await sms.a2pServices!()).toEqual([
      {
        sid: MG(7),
        name: "Helio",
        numbers: [from],
        campaigns: [{ sid: expect.stringMatching(/^QE/), status: "VERIFIED", useCase: "MIXED" }],
      },
      { sid: MG(8), name: "Service 0008", numbers: [], campaigns: [] },
    ]);
    // Never checked: both senders carry the "not checked" warning.
    await db().delete(senderRegistrations);
    expect((await unregisteredSenderWarnings(db(), sms)).map((w) => w.message.split(":")[0])).toEqual([
      from,
      repNumber,
    ]);

    const rows = await refreshSenderRegistrations(db(), sms, new Date());
    const stored = await db().select().from(senderRegistrations);
    expect(stored.map((r) => [r.sender, r.status]).sort()).toEqual(rows.map((r) => [r.sender, r.status]).sort());
    expect(Object.fromEntries(stored.map((r) => [r.sender, r.status]))).toMatchObject({
      [from]: "VERIFIED",
      [repNumber]: "NONE",
      [MG(7)]: "VERIFIED",
      [MG(8)]: "NONE",
    });
    // A team's worth of numbers in one check: more rows than D1's 100 bound parameters would allow one each.
    const many = Array.from({ length: 60 }, () => uniquePhone());
    await fake.setA2p([
      { sid: MG(7), name: "Helio", numbers: [from, ...many], campaigns: [{ status: "VERIFIED", useCase: "MIXED" }] },
      { sid: MG(8), numbers: [], campaigns: [] },
    ]);
    expect((await refreshSenderRegistrations(db(), sms, new Date())).length).toBe(64);
    expect((await db().get<{ n: number }>(sql`SELECT count(*) AS n FROM sender_registrations`))?.n).toBe(64);
    const warnings = await unregisteredSenderWarnings(db(), sms);
    expect(warnings).toEqual([
      {
        code: "unregistered_sender",
        message: `${repNumber}: it has no registered 10DLC campaign. US carriers block unregistered texts from local numbers (Twilio 30034) — see Compliance → 10DLC.`,
      },
    ]);
    // The local outbox reports no registrations: no warning, and the check says what it needs.
    expect(await unregisteredSenderWarnings(db(), { sender: from })).toEqual([]);
    await expect(refreshSenderRegistrations(db(), { ...sms, a2pServices: undefined }, new Date())).rejects.toThrow(
      /set TWILIO_ACCOUNT_SID and TWILIO_AUTH_TOKEN/,
    );
  });

  it("a toll-free sender's verification is read with the rest; until approved, a send from it warns (30032)", async () => {
    const fake = await newFakeTwilioAccount();
    const tollFree = `+1888${String(Date.now()).slice(-7)}`;
    await fake.setA2p([]);
    await fake.setTollFree([{ number: tollFree, status: "IN_REVIEW" }]);
    const sms = createTwilioSms(fake.config({ from: tollFree }));
    expect(await sms.tollFreeVerifications!()).toEqual([
      { sid: expect.stringMatching(/^HH/), number: tollFree, status: "IN_REVIEW", rejectionReason: null },
    ]);
    await refreshSenderRegistrations(db(), sms, new Date());
    const row = await db().select().from(senderRegistrations).where(eq(senderRegistrations.sender, tollFree)).get();
    expect(row).toMatchObject({ status: "IN_PROGRESS", useCase: "TOLL_FREE" });
    const mine = async () =>
      (await unregisteredSenderWarnings(db(), sms)).filter((w) => w.message.startsWith(tollFree)).map((w) => w.message);
    expect(await mine()).toEqual([
      `${tollFree}: its toll-free verification is in progress, not approved. US carriers block texts from unverified toll-free numbers (Twilio 30032) — see Compliance → 10DLC.`,
    ]);
    await fake.setTollFree([{ number: tollFree, status: "TWILIO_APPROVED" }]);
    await refreshSenderRegistrations(db(), sms, new Date());
    expect(await mine()).toEqual([]);
    // Rejected: said so, as a failure.
    expect(
      registrationsFrom([], [], [{ sid: "HH1", number: tollFree, status: "TWILIO_REJECTED", rejectionReason: "x" }]),
    ).toEqual([{ sender: tollFree, status: "FAILED", serviceSid: null, campaignSid: "HH1", useCase: "TOLL_FREE" }]);
    expect(unregisteredSenderWarning(tollFree, null, true)).toMatch(/it has no toll-free verification/);
  });

  it("the 10DLC screen drafts from the organisation's copy and checks with Twilio (no JS); reps are refused", async () => {
    const { fake, from, repNumber } = await setUp();
    const e = twilioEnv(fake, from);
    const admin = await createTestUser({ role: "superuser" });
    const cookie = await loginAs(admin);
    const now = new Date();
    await db()
      .insert(orgSettings)
      .values({ key: "company", value: "Sunny Solar", updatedAt: now })
      .onConflictDoUpdate({ target: orgSettings.key, set: { value: "Sunny Solar" } });
    const name = `Intro ${crypto.randomUUID().slice(0, 6)}`;
    await db()
      .insert(templates)
      .values({ name, type: "sms", content: "Hi {{firstName}}, want your free solar estimate from {{company}}?" });

    const page = await (await fetchWith(e, "/compliance/10dlc", { cookie })).text();
    expect(page).toContain("10DLC registration");
    expect(page).toContain(`Template “${name}” (opt-out line added)`);
    expect(page).toContain("Hi John, want your free solar estimate from Sunny Solar? Reply STOP to opt out.");
    expect(page).toContain("Check with Twilio");
    expect(page).toContain("Opt-out keywords and reply");
    expect(page).toContain("You have been unsubscribed and will receive no more messages from Sunny Solar.");

    const post = (form: Record<string, string>, c = cookie) =>
      fetchWith(e, "/compliance/10dlc", { method: "POST", body: new URLSearchParams(form), cookie: c });
    const rep = await loginAs(await createTestUser({ role: "user" }));
    expect((await post({ intent: "refresh" }, rep)).status).toBe(403);
    expect((await fetchWith(e, "/compliance/10dlc", { cookie: rep })).status).toBe(403);

    const refreshed = await post({ intent: "refresh" });
    expect(refreshed.status).toBe(302);
    expect(refreshed.headers.get("Location")).toBe("/compliance/10dlc#registration-status");
    const after = await (await fetchWith(e, "/compliance/10dlc", { cookie })).text();
    expect(after).toContain(repNumber);
    expect(after).toContain("No campaign");

    const flow =
      "Homeowners opt in by checking the box on our quote form; msg frequency varies, Msg & data rates may apply, reply STOP to opt out.";
    expect((await post({ intent: "opt-in-description", optInDescription: flow })).status).toBe(302);
    expect(await db().select().from(orgSettings).where(eq(orgSettings.key, "optInDescription")).get()).toMatchObject({
      value: flow,
    });
    expect((await post({ intent: "opt-in-description", optInDescription: "x".repeat(2049) })).status).toBe(400);
    expect((await post({ intent: "opt-in-description", optInDescription: "" })).status).toBe(302);
    expect(await db().get(sql`SELECT 1 FROM org_settings WHERE key = 'optInDescription'`)).toBeUndefined();
  });

  it("the Testing Playground's pre-send check of a text warns about the rep number without a campaign (no JS)", async () => {
    const { fake, from, repNumber } = await setUp();
    const e = twilioEnv(fake, from);
    const admin = await createTestUser({ role: "superuser" });
    await refreshSenderRegistrations(db(), createTwilioSms(fake.config({ from })), new Date());
    const contact = await createTestContact(admin.id);
    const res = await fetchWith(e, "/testing", {
      method: "POST",
      cookie: await loginAs(admin),
      body: new URLSearchParams({
        intent: "check",
        type: "sms",
        content: "Sunny Solar: your quote is ready. Reply STOP to opt out.",
        contactIds: String(contact.id),
      }),
    });
    expect(res.status).toBe(200);
    const page = await res.text();
    expect(page).toContain(`${repNumber}: it has no registered 10DLC campaign.`);
    expect(page).not.toContain(`${from}: it has`);
  });

  it("from the local outbox the screen says no registration applies and a check is refused with the reason", async () => {
    const cookie = await loginAs(await createTestUser({ role: "superuser" }));
    const page = await (await call("/compliance/10dlc", { cookie })).text();
    expect(page).toContain("Texts go to the local outbox: no carrier registration applies.");
    expect(page).not.toContain("Check with Twilio");
    const res = await call("/compliance/10dlc", {
      method: "POST",
      body: new URLSearchParams({ intent: "refresh" }),
      cookie,
      redirect: "manual",
    });
    expect(res.status).toBe(503);
    expect(await res.text()).toContain("set TWILIO_ACCOUNT_SID and TWILIO_AUTH_TOKEN");
  });
});
