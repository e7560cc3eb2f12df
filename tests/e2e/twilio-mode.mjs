// A `wrangler dev` of the test file's own in Twilio mode, against the loopback fake Twilio (the shared e2e server runs
// the local outbox). Started before the file's first test on free ports, stopped after its last.
import { randomBytes } from "node:crypto";
import { createServer } from "node:net";
import { after, before } from "node:test";
import assert from "node:assert/strict";
import { startFakeTwilio, twilioSignature } from "../fakes/fake-twilio.mjs";
import { startServer } from "./server.mjs";

/** Twilio's test-credential "valid From" magic number: the account's shared sending number here. */
export const DEFAULT_FROM = "+15005550006";

/** A free TCP port on loopback (the OS picks it; closed again before wrangler takes it). */
const freePort = () =>
  new Promise((resolve, reject) => {
    const srv = createServer().listen(0, "127.0.0.1", () => {
      const { port } = srv.address();
      srv.close(() => resolve(port));
    });
    srv.on("error", reject);
  });

/**
 * Registers the file's before/after hooks; call the result for `{ twilio, server }`. With credentials present a
 * loopback PUBLIC_BASE_URL holds every send (decision 018), so the app is told a public-looking one — the URL Twilio
 * signs its webhooks with.
 */
export function twilioModeServer({ publicBaseUrl = "https://helio-e2e.example.com" } = {}) {
  const running = { twilio: null, server: null, publicBaseUrl };
  before(async () => {
    running.twilio = await startFakeTwilio({
      accountSid: "AC" + randomBytes(16).toString("hex"),
      authToken: "e2e-token",
    });
    running.server = await startServer({
      port: await freePort(),
      inspectorPort: await freePort(),
      vars: {
        TWILIO_ACCOUNT_SID: running.twilio.accountSid,
        TWILIO_AUTH_TOKEN: running.twilio.authToken,
        TWILIO_FROM_NUMBER: DEFAULT_FROM,
        TWILIO_API_BASE: running.twilio.url,
        PUBLIC_BASE_URL: publicBaseUrl,
      },
    });
  });
  after(async () => {
    await running.server?.stop();
    await running.twilio?.stop();
  });
  return () => running;
}

/**
 * A homeowner's text to one of our numbers (with pictures: `media` of `{ url, contentType }`), as Twilio posts it to
 * the server of `twilioModeServer`, signed with the account's auth token against the public URL.
 */
export async function signedInbound({ twilio, server, publicBaseUrl }, { from, to = DEFAULT_FROM, body, media = [] }) {
  const path = "/webhooks/twilio/sms";
  const params = {
    AccountSid: twilio.accountSid,
    MessageSid: (media.length ? "MM" : "SM") + randomBytes(16).toString("hex"),
    From: from,
    To: to,
    Body: body,
    NumMedia: String(media.length),
  };
  media.forEach((m, i) => {
    params[`MediaUrl${i}`] = m.url;
    params[`MediaContentType${i}`] = m.contentType;
  });
  const res = await fetch(server.base + path, {
    method: "POST",
    headers: {
      "Content-Type": "application/x-www-form-urlencoded",
      "X-Twilio-Signature": twilioSignature(twilio.authToken, publicBaseUrl + path, params),
    },
    body: new URLSearchParams(params).toString(),
  });
  assert.equal(res.status, 200, await res.text());
}
