// Built from explicit env objects: the pool also loads a developer's .dev.vars into `env`, so tests never rely on it.
import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { newFakeSendGridKey, newFakeTwilioAccount } from "../../../tests/fakes/control";
import { createDb } from "~/db/client.server";
import { emailProviderFor, parseEmailFrom, providerMode, smsProviderFor, type ProviderEnv } from "./registry.server";

const db = createDb(env.DB);
const now = () => new Date("2026-03-01T12:00:00Z");

const twilioEnv: ProviderEnv = {
  TWILIO_ACCOUNT_SID: "AC" + "1".repeat(32),
  TWILIO_AUTH_TOKEN: "token",
  TWILIO_FROM_NUMBER: "+15551230000",
};

describe("smsProviderFor", () => {
  it("uses Twilio only with account SID, token and a sender", () => {
    expect(smsProviderFor(twilioEnv, db, now)).toMatchObject({ name: "twilio", sender: "+15551230000" });
    const mg = "MG" + "2".repeat(32);
    expect(
      smsProviderFor({ ...twilioEnv, TWILIO_FROM_NUMBER: "", TWILIO_MESSAGING_SERVICE_SID: mg }, db, now),
    ).toMatchObject({
      name: "twilio",
      sender: mg,
    });
    expect(smsProviderFor({ ...twilioEnv, TWILIO_FROM_NUMBER: undefined }, db, now).name).toBe("outbox");
    expect(smsProviderFor({ ...twilioEnv, TWILIO_AUTH_TOKEN: "  " }, db, now).name).toBe("outbox");
    expect(smsProviderFor({ ...twilioEnv, TWILIO_ACCOUNT_SID: undefined }, db, now).name).toBe("outbox");
  });

  it("falls back to the outbox, keeping a configured number as its sender", () => {
    expect(smsProviderFor({}, db, now)).toMatchObject({ name: "outbox", sender: "+15005550006" });
    expect(smsProviderFor({ TWILIO_FROM_NUMBER: "+15551230000" }, db, now)).toMatchObject({
      name: "outbox",
      sender: "+15551230000",
    });
  });

  it("sends through TWILIO_API_BASE when set", async () => {
    const fake = await newFakeTwilioAccount();
    const provider = smsProviderFor(
      {
        TWILIO_ACCOUNT_SID: fake.accountSid,
        TWILIO_AUTH_TOKEN: fake.authToken,
        TWILIO_FROM_NUMBER: "+15005550006",
        TWILIO_API_BASE: fake.url,
      },
      db,
      now,
    );
    const { sid } = await provider.send({
      to: "+14155550100",
      body: "via registry",
      statusCallback: null,
      messageId: 1,
    });
    expect((await fake.calls()).map((c) => c.sid)).toEqual([sid]);
  });
});

describe("emailProviderFor", () => {
  it("uses SendGrid with an API key and EMAIL_FROM, else the outbox", () => {
    expect(emailProviderFor({ SENDGRID_API_KEY: "SG.x", EMAIL_FROM: "news@helio.test" }, db, now)).toMatchObject({
      name: "sendgrid",
      sender: "news@helio.test",
    });
    expect(emailProviderFor({ SENDGRID_API_KEY: "SG.x", EMAIL_FROM: "" }, db, now).name).toBe("outbox");
    expect(emailProviderFor({ EMAIL_FROM: "news@helio.test" }, db, now)).toMatchObject({
      name: "outbox",
      sender: "news@helio.test",
    });
    expect(emailProviderFor({}, db, () => new Date())).toMatchObject({ name: "outbox", sender: "helio@localhost" });
  });

  it("accepts EMAIL_FROM with a display name and SENDGRID_API_BASE", async () => {
    expect(parseEmailFrom("Helio Solar <news@helio.test>")).toEqual({ email: "news@helio.test", name: "Helio Solar" });
    expect(parseEmailFrom('"Helio" <news@helio.test>')).toEqual({ email: "news@helio.test", name: "Helio" });
    expect(parseEmailFrom("news@helio.test")).toEqual({ email: "news@helio.test" });

    const fake = await newFakeSendGridKey();
    const provider = emailProviderFor(
      { SENDGRID_API_KEY: fake.apiKey, EMAIL_FROM: "Helio Solar <news@helio.test>", SENDGRID_API_BASE: fake.url },
      db,
      now,
    );
    await provider.send({
      to: "ana@example.com",
      subject: "s",
      text: "t",
      html: "<p>t</p>",
      unsubscribeUrl: "https://helio.test/u",
      messageId: 3,
    });
    const [call] = await fake.calls();
    expect(call).toMatchObject({ from: "news@helio.test", fromName: "Helio Solar", httpStatus: 202 });
  });
});

describe("providerMode", () => {
  it("reports each channel's provider for the banner", () => {
    expect(providerMode({})).toEqual({ sms: "outbox", email: "outbox" });
    expect(providerMode({ ...twilioEnv, SENDGRID_API_KEY: "SG.x", EMAIL_FROM: "a@b.test" })).toEqual({
      sms: "twilio",
      email: "sendgrid",
    });
    expect(providerMode({ ...twilioEnv, SENDGRID_API_KEY: "SG.x" })).toEqual({ sms: "twilio", email: "outbox" });
  });
});
