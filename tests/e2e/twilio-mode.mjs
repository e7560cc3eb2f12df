// A `wrangler dev` of the test file's own in Twilio mode, against the loopback fake Twilio (the shared e2e server runs
// the local outbox). Started before the file's first test on free ports, stopped after its last.
import { randomBytes } from "node:crypto";
import { createServer } from "node:net";
import { after, before } from "node:test";
import { startFakeTwilio } from "../fakes/fake-twilio.mjs";
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
