// Runs in workerd against the fake Twilio server (tests/fakes/fake-twilio.mjs, started by tests/global-setup.ts).
import { beforeEach, describe, expect, it } from "vitest";
import { newFakeTwilioAccount, providerError, type FakeTwilioAccount } from "../../../tests/fakes/control";
import { validateTwilioSignature } from "../twilio-signature";
import { createTwilioSms } from "./twilio.server";

const FROM = "+15005550006";
const MG = "MG" + "0123456789abcdef".repeat(2);
const CALLBACK = "https://helio.test/webhooks/twilio/status";

let fake: FakeTwilioAccount;
beforeEach(async () => {
  fake = await newFakeTwilioAccount();
});

const sms = (
  overrides: Partial<{ to: string; body: string; statusCallback: string | null; messageId: number }> = {},
) => ({
  to: "+14155550100",
  body: "Hi from Helio",
  statusCallback: CALLBACK,
  messageId: 1,
  ...overrides,
});

describe("createTwilioSms send", () => {
  it("POSTs the form fields with Basic auth and returns Twilio's sid", async () => {
    const provider = createTwilioSms(fake.config({ from: FROM }));
    expect(provider.name).toBe("twilio");
    expect(provider.sender).toBe(FROM);
    const body = "Hi Ana & co: 50% off = great? +1 ☀️ ünïcödé\nline two";
    const accepted = await provider.send(sms({ body }));

    expect(accepted.sid).toMatch(/^SM[0-9a-f]{32}$/);
    expect(accepted.status).toBe("queued");
    const calls = await fake.calls();
    expect(calls).toHaveLength(1);
    // The fake only records requests whose Basic auth matched this account.
    expect(calls[0].params).toEqual({ To: "+14155550100", Body: body, From: FROM, StatusCallback: CALLBACK });
    expect(calls[0].contentType).toMatch(/^application\/x-www-form-urlencoded/);
    expect(calls[0].sid).toBe(accepted.sid);
    const [message] = await fake.messages();
    expect(message).toMatchObject({
      sid: accepted.sid,
      to: "+14155550100",
      from: FROM,
      body,
      account_sid: fake.accountSid,
    });
  });

  it("sends MessagingServiceSid instead of From when configured (accepted → queued)", async () => {
    const provider = createTwilioSms(fake.config({ messagingServiceSid: MG, from: FROM }));
    expect(provider.sender).toBe(MG);
    const accepted = await provider.send(sms({ statusCallback: null }));
    expect(accepted.status).toBe("queued");
    const [call] = await fake.calls();
    expect(call.params).toEqual({ To: "+14155550100", Body: "Hi from Helio", MessagingServiceSid: MG });
    const [message] = await fake.messages();
    expect(message.status).toBe("accepted");
  });

  it("refuses a config without a sender", () => {
    expect(() => createTwilioSms({ accountSid: fake.accountSid, authToken: fake.authToken, from: " " })).toThrow(
      /From number/,
    );
  });

  it("429 with Retry-After → retry with retryAfterSeconds", async () => {
    await fake.failNext(1, 429, { retryAfter: 7 });
    const e = await providerError(createTwilioSms(fake.config()).send(sms()));
    expect(e.kind).toBe("retry");
    expect(e.retryAfterSeconds).toBe(7);
    expect(e.code).toBe("20429");
    expect(e.message).toBe("Twilio 20429: Too many requests.");
    // The next attempt goes through.
    await expect(createTwilioSms(fake.config()).send(sms())).resolves.toMatchObject({ status: "queued" });
    expect((await fake.calls()).map((c) => c.httpStatus)).toEqual([429, 201]);
  });

  it("5xx → retry (Retry-After when given)", async () => {
    await fake.failNext(1, 500);
    const e500 = await providerError(createTwilioSms(fake.config()).send(sms()));
    expect(e500).toMatchObject({ kind: "retry", code: "20500", retryAfterSeconds: null });
    await fake.failNext(1, 503, { retryAfter: 30 });
    const e503 = await providerError(createTwilioSms(fake.config()).send(sms()));
    expect(e503).toMatchObject({ kind: "retry", code: "20503", retryAfterSeconds: 30 });
  });

  it("21211 invalid number → permanent, in English", async () => {
    await fake.addInvalid("+14155550199");
    const e = await providerError(createTwilioSms(fake.config()).send(sms({ to: "+14155550199" })));
    expect(e).toMatchObject({ kind: "permanent", code: "21211", optedOut: false });
    expect(e.message).toBe("Twilio 21211: The 'To' number is not a valid phone number.");
  });

  it("21610 unsubscribed recipient → permanent with optedOut", async () => {
    await fake.addUnsubscribed("+14155550198");
    const e = await providerError(createTwilioSms(fake.config()).send(sms({ to: "+14155550198" })));
    expect(e).toMatchObject({ kind: "permanent", code: "21610", optedOut: true, retryAfterSeconds: null });
  });

  it("other carrier/number codes → permanent with the code; unknown codes keep Twilio's message", async () => {
    await fake.setNumberError("+14155550197", 21614);
    const e1 = await providerError(createTwilioSms(fake.config()).send(sms({ to: "+14155550197" })));
    expect(e1).toMatchObject({
      kind: "permanent",
      code: "21614",
      message: "Twilio 21614: The 'To' number is not a mobile number.",
    });
    await fake.setNumberError("+14155550196", 21999, { message: "Something Twilio-specific" });
    const e2 = await providerError(createTwilioSms(fake.config()).send(sms({ to: "+14155550196" })));
    expect(e2).toMatchObject({ kind: "permanent", code: "21999", message: "Twilio 21999: Something Twilio-specific." });
  });

  it("wrong credentials → permanent 20003", async () => {
    const provider = createTwilioSms({ ...fake.config(), authToken: "not-the-token" });
    const e = await providerError(provider.send(sms()));
    expect(e).toMatchObject({ kind: "permanent", code: "20003" });
    expect(e.message).toMatch(/^Twilio 20003: Authentication failed/);
    expect(await fake.calls()).toHaveLength(0);
  });

  it("network failures → retry: closed port, dropped connection, timeout", async () => {
    const closed = createTwilioSms({ ...fake.config(), apiBase: "http://127.0.0.1:1" });
    expect(await providerError(closed.send(sms()))).toMatchObject({ kind: "retry", code: "network" });

    await fake.failNext(1, 0);
    expect(await providerError(createTwilioSms(fake.config()).send(sms()))).toMatchObject({
      kind: "retry",
      code: "network",
    });

    await fake.setDelay(1_000);
    const impatient = createTwilioSms({ ...fake.config(), timeoutMs: 100 });
    expect(await providerError(impatient.send(sms()))).toMatchObject({ kind: "retry", code: "timeout" });
  });

  it("uses the fetch it is given (one call per send)", async () => {
    const seen: string[] = [];
    const provider = createTwilioSms({
      ...fake.config(),
      fetch: (input, init) => {
        seen.push(`${init?.method} ${String(input)}`);
        return fetch(input, init);
      },
    });
    await provider.send(sms());
    expect(seen).toEqual([`POST ${fake.url}/2010-04-01/Accounts/${fake.accountSid}/Messages.json`]);
  });
});

describe("createTwilioSms findSent", () => {
  it("lists messages to a number since a time, newest first, with parsed dates", async () => {
    const provider = createTwilioSms(fake.config());
    const since = new Date(Date.now() - 60_000);
    const a = await provider.send(sms({ to: "+14155550111", body: "first" }));
    const b = await provider.send(sms({ to: "+14155550111", body: "second" }));
    await provider.send(sms({ to: "+14155550112", body: "other number" }));

    const found = await provider.findSent("+14155550111", since);
    expect(found.map((m) => m.body).sort()).toEqual(["first", "second"]);
    expect(new Set(found.map((m) => m.sid))).toEqual(new Set([a.sid, b.sid]));
    for (const m of found) {
      expect(m.to).toBe("+14155550111");
      expect(m.status).toBe("queued");
      expect(m.dateCreated).toBeInstanceOf(Date);
      // RFC 2822 has whole seconds.
      expect(Math.abs(m.dateCreated!.getTime() - Date.now())).toBeLessThan(10_000);
    }
    expect(found[0].dateCreated!.getTime()).toBeGreaterThanOrEqual(found[1].dateCreated!.getTime());
  });

  it("drops messages created before `since` (DateSent is day-granular)", async () => {
    const provider = createTwilioSms(fake.config());
    await provider.send(sms({ to: "+14155550113" }));
    expect(await provider.findSent("+14155550113", new Date(Date.now() + 60_000))).toEqual([]);
    expect(await provider.findSent("+14155550113", new Date(Date.now() + 2 * 86_400_000))).toEqual([]);
  });

  it("reports list failures as ProviderErrors", async () => {
    await fake.failNext(1, 429, { retryAfter: 3 });
    const e = await providerError(createTwilioSms(fake.config()).findSent("+14155550114", new Date()));
    expect(e).toMatchObject({ kind: "retry", retryAfterSeconds: 3 });
  });
});

describe("status callbacks from the fake (independent signer) validate with our WebCrypto check", () => {
  it("accepts Twilio's signature and rejects one made with another token", async () => {
    const provider = createTwilioSms(fake.config());
    const sinkPath = `/__sink/status/${crypto.randomUUID()}`;
    const { sid } = await provider.send(sms({ statusCallback: `${fake.url}${sinkPath}?source=test` }));

    const sent = await fake.statusCallback(sid, "delivered");
    expect(sent.status).toBe(204);
    const [received] = await fake.sink(sinkPath);
    expect(received.params).toMatchObject({
      MessageSid: sid,
      MessageStatus: "delivered",
      AccountSid: fake.accountSid,
      To: "+14155550100",
      From: FROM,
    });
    const url = `${fake.url}${received.path}`;
    expect(
      await validateTwilioSignature(fake.authToken, received.headers["x-twilio-signature"], url, received.params),
    ).toBe(true);
    expect(
      await validateTwilioSignature("another-token", received.headers["x-twilio-signature"], url, received.params),
    ).toBe(false);

    const forgedPath = `/__sink/status/${crypto.randomUUID()}`;
    await fake.statusCallback(sid, "undelivered", {
      url: `${fake.url}${forgedPath}`,
      signWith: "wrong-token",
      errorCode: 30003,
    });
    const [forged] = await fake.sink(forgedPath);
    expect(forged.params.ErrorCode).toBe("30003");
    expect(
      await validateTwilioSignature(
        fake.authToken,
        forged.headers["x-twilio-signature"],
        `${fake.url}${forgedPath}`,
        forged.params,
      ),
    ).toBe(false);
  });
});
