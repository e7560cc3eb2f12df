// Runs in workerd against the fake SendGrid server (tests/fakes/fake-sendgrid.mjs, started by tests/global-setup.ts).
import { beforeEach, describe, expect, it } from "vitest";
import { newFakeSendGridKey, providerError, type FakeSendGridKey } from "../../../tests/fakes/control";
import { createSendGridEmail } from "./sendgrid.server";

const UNSUB = "https://helio.test/unsubscribe/e/abc123";

let fake: FakeSendGridKey;
beforeEach(async () => {
  fake = await newFakeSendGridKey();
});

const email = (
  overrides: Partial<{ to: string; subject: string; text: string; html: string; messageId: number }> = {},
) => ({
  to: "ana@example.com",
  subject: "Your solar quote",
  text: "Hello Ana",
  html: "<p>Hello Ana</p>",
  unsubscribeUrl: UNSUB,
  messageId: 42,
  ...overrides,
});

describe("createSendGridEmail", () => {
  it("POSTs the v3 mail/send JSON with one-click unsubscribe headers and returns X-Message-Id", async () => {
    const provider = createSendGridEmail(fake.config({ from: "news@helio.test", fromName: "Helio Solar" }));
    expect(provider).toMatchObject({ name: "sendgrid", sender: "news@helio.test" });
    const accepted = await provider.send(email());

    const calls = await fake.calls();
    expect(calls).toHaveLength(1);
    expect(accepted).toEqual({ sid: calls[0].messageId, status: "sent" });
    expect(accepted.sid).toMatch(/^[A-Za-z0-9_-]{22}$/);
    expect(calls[0].contentType).toMatch(/^application\/json/);
    expect(calls[0].payload).toEqual({
      personalizations: [{ to: [{ email: "ana@example.com" }] }],
      from: { email: "news@helio.test", name: "Helio Solar" },
      subject: "Your solar quote",
      content: [
        { type: "text/plain", value: "Hello Ana" },
        { type: "text/html", value: "<p>Hello Ana</p>" },
      ],
      headers: { "List-Unsubscribe": `<${UNSUB}>`, "List-Unsubscribe-Post": "List-Unsubscribe=One-Click" },
      custom_args: { message_id: "42" },
    });
  });

  it("strips CR, LF, NUL and other control characters from the subject, so no header can be injected (issue 23)", async () => {
    await createSendGridEmail(fake.config()).send(
      email({ subject: "Quote\r\nBcc: all@example.com\u0000\u0007 ready" }),
    );
    const [call] = await fake.calls();
    expect(call.payload.subject).toBe("Quote Bcc: all@example.com  ready");
  });

  it("omits an empty part and a missing from name", async () => {
    await createSendGridEmail(fake.config()).send(email({ text: "" }));
    const [call] = await fake.calls();
    expect(call.payload.from).toEqual({ email: "news@helio.test" });
    expect(call.payload.content).toEqual([{ type: "text/html", value: "<p>Hello Ana</p>" }]);
  });

  it("429 → retry, with Retry-After or else X-RateLimit-Reset", async () => {
    await fake.failNext(1, 429, { retryAfter: 12 });
    const e1 = await providerError(createSendGridEmail(fake.config()).send(email()));
    expect(e1).toMatchObject({
      kind: "retry",
      code: "http_429",
      retryAfterSeconds: 12,
      message: "SendGrid 429: too many requests.",
    });

    await fake.failNext(1, 429);
    const e2 = await providerError(createSendGridEmail(fake.config()).send(email()));
    expect(e2.kind).toBe("retry");
    expect(e2.retryAfterSeconds).toBeGreaterThanOrEqual(0);
    expect(e2.retryAfterSeconds).toBeLessThanOrEqual(2);
  });

  it("5xx and network failures → retry", async () => {
    await fake.failNext(1, 502);
    expect(await providerError(createSendGridEmail(fake.config()).send(email()))).toMatchObject({
      kind: "retry",
      code: "http_502",
    });
    await fake.failNext(1, 0);
    expect(await providerError(createSendGridEmail(fake.config()).send(email()))).toMatchObject({
      kind: "retry",
      code: "network",
    });
    const closed = createSendGridEmail({ ...fake.config(), apiBase: "http://127.0.0.1:1" });
    expect(await providerError(closed.send(email()))).toMatchObject({ kind: "retry", code: "network" });
  });

  it("400 → permanent with SendGrid's first error message", async () => {
    await fake.addInvalid("bounce@example.com");
    const e = await providerError(createSendGridEmail(fake.config()).send(email({ to: "bounce@example.com" })));
    expect(e).toMatchObject({
      kind: "permanent",
      code: "http_400",
      message: "SendGrid 400: Does not contain a valid address.",
    });

    const e2 = await providerError(createSendGridEmail(fake.config()).send(email({ subject: "" })));
    expect(e2.kind).toBe("permanent");
    expect(e2.message).toMatch(/^SendGrid 400: The subject is required/);
  });

  it("a wrong API key → permanent 401", async () => {
    const e = await providerError(createSendGridEmail({ ...fake.config(), apiKey: "SG.wrong" }).send(email()));
    expect(e).toMatchObject({ kind: "permanent", code: "http_401" });
    expect(e.message).toBe("SendGrid 401: The provided authorization grant is invalid, expired, or revoked.");
    expect(await fake.calls()).toHaveLength(0);
  });
});
