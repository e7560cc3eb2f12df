import { it } from "node:test";
import { describeEachMode, PHONE_WINDOW, sharedBrowser, sharedWebhookReceiver, signedInPage } from "./browser.mjs";
import {
  assertFitsWidth,
  randomPhone,
  receivedReplyEvent,
  simulateReply,
  subscribeWebhook,
  toast,
  turnOffWebhook,
  until,
} from "./lib.mjs";
import { E2E_USERS } from "./server.mjs";

// Outbound webhooks (issue 26, decision 036): a superuser creates a subscription on Settings → Webhooks on a 390 px
// phone, a homeowner replies (the local outbox's simulated inbound: the Twilio webhook's path), the loopback fake
// receiver gets a message.received it can verify with the secret the screen showed once, and the delivery log lists
// it and replays it — JS on and off. (The e2e server runs with WEBHOOKS_ALLOW_PRIVATE=1.)
const browser = sharedBrowser();
const webhookReceiver = sharedWebhookReceiver();

describeEachMode("webhooks", (mode) => {
  it("creates a subscription (secret shown once), a reply is delivered signed, the log shows it and replays it", async () => {
    const { context, page } = await signedInPage(browser(), mode, E2E_USERS.admin, PHONE_WINDOW);
    const endpoint = await subscribeWebhook(page, webhookReceiver(), `e2e ${mode.name}`);
    await assertFitsWidth(page, 390, "Webhooks with a new subscription");

    // A homeowner replies.
    const from = randomPhone();
    const text = `Call me tomorrow ${mode.name} ${Date.now()}`;
    await simulateReply(page, from, text);
    const body = await receivedReplyEvent(webhookReceiver(), endpoint, text, from);

    // The delivery log.
    await page.goto("/settings/webhooks");
    await page.getByTestId("webhook-subscription").filter({ hasText: endpoint.url }).getByRole("link").click();
    await page.getByRole("heading", { name: "Webhook delivery log" }).waitFor();
    const row = page.getByTestId("webhook-delivery").filter({ hasText: body.id });
    await until(async () => {
      if (await row.getByText("delivered", { exact: true }).count()) return true;
      await page.waitForTimeout(500);
      await page.reload();
      return false;
    }, "the delivered row in the log");
    await row.getByText(/HTTP 200/).waitFor();
    await assertFitsWidth(page, 390, "the delivery log");
    await row.getByRole("button", { name: `Replay ${body.id}` }).click();
    await toast(page, "Delivery queued again").waitFor();
    await until(
      () =>
        webhookReceiver()
          .endpoints.get(endpoint.id)
          .deliveries.filter((x) => x.eventId === body.id).length === 2,
      "the replayed delivery",
      30_000,
    );

    // Turn it off so the other mode's reply is not sent here.
    await turnOffWebhook(page, endpoint);
    await context.close();
  });
});
