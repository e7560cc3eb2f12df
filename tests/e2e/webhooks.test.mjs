import assert from "node:assert/strict";
import { after, before, it } from "node:test";
import { startFakeWebhookReceiver } from "../fakes/fake-webhook-receiver.mjs";
import { describeEachMode, sharedBrowser, signedInPage } from "./browser.mjs";
import { randomPhone, until } from "./lib.mjs";
import { E2E_USERS } from "./server.mjs";

// Outbound webhooks (issue 26, decision 036): a superuser creates a subscription on Settings → Webhooks on a 390 px
// phone, a homeowner replies (the local outbox's simulated inbound: the Twilio webhook's path), the loopback fake
// receiver gets a message.received it can verify with the secret the screen showed once, and the delivery log lists
// it and replays it — JS on and off. (The e2e server runs with WEBHOOKS_ALLOW_PRIVATE=1.)
const browser = sharedBrowser();
const toast = (page, text) => page.getByTestId("toast").getByText(text, { exact: true }).first();
let receiver;
before(async () => {
  receiver = await startFakeWebhookReceiver();
});
after(async () => {
  await receiver?.stop();
});

async function newEndpoint() {
  const res = await fetch(receiver.url + "/__control/endpoints", { method: "POST", body: "{}" });
  return res.json();
}

describeEachMode("webhooks", (mode) => {
  it("creates a subscription (secret shown once), a reply is delivered signed, the log shows it and replays it", async () => {
    const { context, page } = await signedInPage(browser(), mode, E2E_USERS.admin, {
      viewport: { width: 390, height: 800 },
    });
    const endpoint = await newEndpoint();
    await page.goto("/settings/webhooks");
    await page.getByRole("heading", { name: "Webhooks" }).first().waitFor();
    const form = page.getByTestId("webhook-form");
    await form.getByLabel("URL").fill(endpoint.url);
    await form.getByLabel("Description").fill(`e2e ${mode.name}`);
    await form.getByRole("button", { name: "Create webhook" }).click();
    const shown = page.getByTestId("webhook-secret");
    const secret = (await shown.locator("code").first().textContent()).trim();
    assert.match(secret, /^whsec_[0-9a-f]{64}$/);
    receiver.endpoints.get(endpoint.id).secret = secret;
    const wide = await page.evaluate(() =>
      [...document.querySelectorAll("body *")]
        .filter((e) => e.getBoundingClientRect().right > 391)
        .slice(-5)
        .map((e) => `${e.tagName}.${e.className} ${Math.round(e.getBoundingClientRect().right)}`),
    );
    assert.ok((await page.evaluate(() => document.documentElement.scrollWidth)) <= 390, wide.join("\n"));

    // A homeowner replies.
    const from = randomPhone();
    const text = `Call me tomorrow ${mode.name} ${Date.now()}`;
    await page.goto("/messages");
    await page.getByLabel("From phone").fill(from);
    await page.getByLabel("Reply text").fill(text);
    await Promise.all([
      page.waitForURL(/\/messages\?tab=incoming/),
      page.getByRole("button", { name: "Simulate reply" }).click(),
    ]);

    let delivered;
    await until(
      () => (delivered = receiver.endpoints.get(endpoint.id).deliveries.find((x) => x.body.includes(text))),
      "the signed message.received delivery",
      30_000,
    );
    assert.equal(delivered.verified, true, delivered.problem);
    const body = JSON.parse(delivered.body);
    assert.equal(body.type, "message.received");
    assert.equal(body.data.from, from);
    assert.equal(delivered.eventId, body.id);

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
    assert.ok((await page.evaluate(() => document.documentElement.scrollWidth)) <= 390);
    await row.getByRole("button", { name: `Replay ${body.id}` }).click();
    await toast(page, "Delivery queued again").waitFor();
    await until(
      () => receiver.endpoints.get(endpoint.id).deliveries.filter((x) => x.eventId === body.id).length === 2,
      "the replayed delivery",
      30_000,
    );

    // Turn it off so the other mode's reply is not sent here.
    await page.goto("/settings/webhooks");
    await page
      .getByTestId("webhook-subscription")
      .filter({ hasText: endpoint.url })
      .getByRole("button", { name: `Turn off ${endpoint.url}` })
      .click();
    await toast(page, "Webhook turned off").waitFor();
    await context.close();
  });
});
