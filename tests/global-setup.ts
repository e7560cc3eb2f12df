// Runs once in Node before the workerd test pool: starts the fake Twilio, SendGrid and OpenAI-compatible servers and hands their
// addresses and credentials to the tests (`inject(...)`, see tests/fakes/control.ts). Tests run inside workerd and
// cannot call these objects, so they drive the fakes over HTTP through each fake's /__control API.
import { readdirSync, readFileSync } from "node:fs";
import type { TestProject } from "vitest/node";
import { startFakeOpenAi } from "./fakes/fake-openai.mjs";
import { startFakePushService } from "./fakes/fake-push-service.mjs";
import { startFakeSendGrid } from "./fakes/fake-sendgrid.mjs";
import { startFakeTwilio } from "./fakes/fake-twilio.mjs";
import { startFakeWebhookReceiver } from "./fakes/fake-webhook-receiver.mjs";
import "./fakes/provided-context";

// Test-only credentials, shaped like real ones.
const ACCOUNT_SID = "AC" + "0123456789abcdef".repeat(2);
const AUTH_TOKEN = "fedcba9876543210".repeat(2);
const SENDGRID_KEY = "SG.fake-key.helio-tests";

export default async function setup(project: TestProject) {
  const twilio = await startFakeTwilio({ accountSid: ACCOUNT_SID, authToken: AUTH_TOKEN });
  const sendgrid = await startFakeSendGrid({ apiKey: SENDGRID_KEY });
  project.provide("fakeTwilioUrl", twilio.url);
  project.provide("fakeTwilioAccountSid", ACCOUNT_SID);
  project.provide("fakeTwilioAuthToken", AUTH_TOKEN);
  project.provide("fakeSendGridUrl", sendgrid.url);
  project.provide("fakeSendGridApiKey", SENDGRID_KEY);
  const openai = await startFakeOpenAi();
  project.provide("fakeOpenAiUrl", openai.url);
  const receiver = await startFakeWebhookReceiver();
  project.provide("fakeWebhookReceiverUrl", receiver.url);
  const push = await startFakePushService();
  project.provide("fakePushServiceUrl", push.url);
  // workerd has no file system: the committed fixture files go to the tests as base64 (see tests/fixtures.ts).
  const dir = new URL("./fixtures/", import.meta.url);
  project.provide(
    "fixtures",
    Object.fromEntries(
      readdirSync(dir)
        .filter((f) => !f.endsWith(".mjs"))
        .map((f) => [f, readFileSync(new URL(f, dir)).toString("base64")]),
    ),
  );
  return async () => {
    await Promise.all([twilio.stop(), sendgrid.stop(), openai.stop(), receiver.stop(), push.stop()]);
  };
}
