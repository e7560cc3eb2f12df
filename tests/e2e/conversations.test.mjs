import assert from "node:assert/strict";
import { it } from "node:test";
import { BASE, describeEachMode, sharedBrowser, signedInPage } from "./browser.mjs";
import { randomPhone, simulateReply, until } from "./lib.mjs";
import { E2E_USERS } from "./server.mjs";

const browser = sharedBrowser();

// Polled from Node: page.waitForFunction's in-page polling timed out in CI (30 s, JS off) right after the form's POST
// re-rendered the page; reading the box's value from outside works the same with JS on and off.
const replyBoxHolds = (page, value) =>
  until(
    async () =>
      (await page
        .locator("#reply-message")
        .inputValue()
        .catch(() => null)) === value,
    `reply box "${value}"`,
    30_000,
  );

describeEachMode("Conversations", (mode) => {
  it("an inbound message marks the conversation 'needs reply'; replying from the contact's page shows in the thread", async () => {
    const { context, page } = await signedInPage(browser(), mode, E2E_USERS.user);
    const phone = randomPhone();
    const last = `Conv${Date.now()}`;
    const res = await context.request.post(BASE + "/api/contacts", {
      data: { firstName: "Rosa", lastName: last, phone, state: "AZ" },
      headers: { Origin: BASE },
    });
    assert.equal(res.status(), 201);
    const contact = await res.json();
    // A contact the rep adds is theirs (decision 048), so its reply lands in the rep's own queue (Mine, decision 046)
    // rather than going round-robin to the next available user.
    await page.goto(`/contacts/${contact.id}`);
    await page.getByTestId("contact-owner").getByText(`${E2E_USERS.user.first} ${E2E_USERS.user.last}`).waitFor();

    // The contact writes in (the local outbox's simulated inbound: the Twilio webhook's path).
    const inbound = `Is solar worth it ${mode.name} ${Date.now()}`;
    await simulateReply(page, phone, inbound);

    await page.locator("#content").getByRole("link", { name: "Conversations" }).click();
    await page.waitForURL(/\/messages\/conversations/);
    const row = page.getByTestId("conversation-row").filter({ hasText: `Rosa ${last}` });
    await row.getByText("Needs reply").waitFor();
    await row.getByText(inbound).waitFor();

    await Promise.all([page.waitForURL(new RegExp(`/contacts/${contact.id}`)), row.getByRole("link").click()]);
    await page.getByTestId("thread").getByText(inbound).waitFor();
    await page.getByTestId("consent").getByText("Subscribed").first().waitFor();

    // Curly quotes make the text UCS-2: the note offers to replace them (in place with JS, a re-render without).
    await page.getByLabel("Reply", { exact: true }).fill("It\u2019s worth it \u2014 call me");
    await page.getByTestId("ucs2-note").waitFor();
    await page.getByRole("button", { name: "Replace them" }).click();
    await replyBoxHolds(page, "It's worth it - call me");
    // With JS the note goes once the text is plain; without JS it stays (nothing can re-check while typing).
    if (mode.javaScriptEnabled) assert.equal(await page.getByTestId("ucs2-note").count(), 0);

    const reply = `Yes it is ${mode.name} ${Date.now()}`;
    await page.getByLabel("Reply", { exact: true }).fill(reply);
    if (mode.javaScriptEnabled) await page.getByTestId("reply-count").getByText(`${reply.length} characters`).waitFor();
    await page.getByRole("button", { name: "Send reply" }).click();
    await page.getByTestId("thread").getByText(reply).waitFor();
    // Sent: the box is empty again, with JS too (issue 24: a kept text invites a double send).
    await replyBoxHolds(page, "");
    const outbound = page.getByTestId("thread-message").filter({ hasText: reply });
    assert.equal(await outbound.getAttribute("data-direction"), "outbound");

    // A template fills the reply box: at once with JS; without JS "Use template" reloads the page with it.
    const templateText = `Template reply ${mode.name} ${Date.now()}, call us any time`;
    const created = await context.request.post(BASE + "/api/templates", {
      data: { name: `Reply ${Date.now()}`, type: "sms", content: templateText },
      headers: { Origin: BASE },
    });
    assert.equal(created.status(), 201);
    const template = await created.json();
    await page.goto(`/contacts/${contact.id}`);
    // With JS, the live count shows once the page has hydrated: a choice before that is applied on hydration.
    if (mode.javaScriptEnabled) await page.getByTestId("reply-count").waitFor();
    await page.getByLabel("Reply with a template").selectOption(String(template.id));
    if (!mode.javaScriptEnabled)
      await Promise.all([page.waitForURL(/template=/), page.getByTestId("template-apply").click()]);
    await replyBoxHolds(page, templateText);
    await page.getByRole("button", { name: "Send reply" }).click();
    await page.getByTestId("thread").getByText(templateText).waitFor();

    // Answered: no longer waiting for a reply.
    await page.goto("/messages/conversations");
    const answered = page.getByTestId("conversation-row").filter({ hasText: `Rosa ${last}` });
    await answered.getByText(templateText).waitFor();
    assert.equal(await answered.getAttribute("data-needs-reply"), "0");
    await context.close();
  });
});
