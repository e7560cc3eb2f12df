// Issue 27 items 4–5 on the conversation (decision 047), with JS on and off: an internal note with an @mention shows
// in the thread and the mentioned rep's Mentions list and is never a message; a send-later reply is listed and
// cancelled; a suggested reply fills the box and goes only when the rep presses Send.
import assert from "node:assert/strict";
import { it } from "node:test";
import { BASE, describeEachMode, sharedBrowser, signedInPage } from "./browser.mjs";
import { randomPhone, simulateReply, toast, until } from "./lib.mjs";
import { E2E_USERS } from "./server.mjs";

const browser = sharedBrowser();

const replyBoxHolds = (page, test, what) =>
  until(
    async () => {
      const v = await page
        .locator("#reply-message")
        .inputValue()
        .catch(() => null);
      return v !== null && test(v);
    },
    `reply box ${what}`,
    30_000,
  );

/**
 * Every outgoing message whose text contains `text` (the Message Center's list: what the pipeline was given), to
 * `contactId` when given.
 */
async function outgoingWith(context, text, contactId) {
  const list = await (await context.request.get(BASE + "/api/messages?tab=outgoing&limit=100")).json();
  return list.filter(
    (m) => String(m.content ?? "").includes(text) && (contactId === undefined || m.contactId === contactId),
  );
}

/** A fresh contact "Rosa <prefix><now>" in Arizona, made through the API. */
async function newContact(context, prefix) {
  const phone = randomPhone();
  const res = await context.request.post(BASE + "/api/contacts", {
    data: { firstName: "Rosa", lastName: `${prefix}${Date.now()}`, phone, state: "AZ" },
    headers: { Origin: BASE },
  });
  assert.equal(res.status(), 201);
  return { contact: await res.json(), phone };
}

/** "YYYY-MM-DDTHH:MM" a day ahead on the wall clock of `zone`. */
function tomorrowIn(zone) {
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat("en-CA", {
      timeZone: zone,
      year: "numeric",
      month: "2-digit",
      day: "2-digit",
      hour: "2-digit",
      minute: "2-digit",
      hourCycle: "h23",
    })
      .formatToParts(new Date(Date.now() + 24 * 60 * 60 * 1000))
      .map((p) => [p.type, p.value]),
  );
  return `${parts.year}-${parts.month}-${parts.day}T${parts.hour}:${parts.minute}`;
}

describeEachMode("Conversation notes, send later and suggested replies", (mode) => {
  it("a note with an @mention is shown, reaches the mentioned rep, and is never sent", async () => {
    const { context, page } = await signedInPage(browser(), mode, E2E_USERS.admin);
    const { contact } = await newContact(context, "Notes");
    await page.goto(`/contacts/${contact.id}`);
    const tag = `nt${mode.javaScriptEnabled ? "js" : "nojs"}${Date.now()}`;
    const box = page.getByLabel("Internal note");
    if (mode.javaScriptEnabled) {
      // After hydration the picker offers teammates as soon as an @ is typed.
      await page.getByTestId("reply-count").waitFor();
      await box.pressSequentially("@Ril");
      await page
        .getByTestId("mention-picker")
        .getByRole("button", { name: /Riley Rep/ })
        .click();
      await box.pressSequentially(`please call her back ${tag}`);
      assert.equal(await box.inputValue(), `@Riley Rep please call her back ${tag}`);
    } else {
      assert.equal(await page.getByTestId("mention-picker").count(), 0);
      await box.fill(`@Riley Rep please call her back ${tag}`);
    }
    await page.getByRole("button", { name: "Add note" }).click();
    await toast(page, "Note added").waitFor();
    const note = page.getByTestId("thread-note").filter({ hasText: tag });
    await note.getByText("Internal note — not sent").waitFor();
    await note.getByText(`@Riley Rep please call her back ${tag}`).waitFor();
    // Never a message: the pipeline has nothing with its text.
    assert.deepEqual(await outgoingWith(context, tag), []);

    // The mentioned rep sees it under Mentions, linking to the conversation.
    const rep = await signedInPage(browser(), mode, E2E_USERS.user);
    await rep.page.goto("/messages/mentions");
    const mention = rep.page.getByTestId("mention").filter({ hasText: tag });
    await mention.waitFor();
    await Promise.all([rep.page.waitForURL(new RegExp(`/contacts/${contact.id}`)), mention.getByRole("link").click()]);
    await rep.page.getByTestId("thread-note").filter({ hasText: tag }).waitFor();
    await rep.context.close();
    await context.close();
  });

  it("a send-later reply is listed as scheduled and cancelled; a suggested reply fills the box and goes only on Send", async () => {
    const { context, page } = await signedInPage(browser(), mode, E2E_USERS.user);
    const { contact, phone } = await newContact(context, "Later");
    await simulateReply(page, phone, `How much does it cost ${Date.now()}?`);
    await page.goto(`/contacts/${contact.id}`);
    if (mode.javaScriptEnabled) await page.getByTestId("reply-count").waitFor();

    // Send later: tomorrow at this time in the zone the form names (the browser's with JS, New York without).
    const later = `Following up as promised ${mode.name} ${Date.now()}`;
    await page.getByLabel("Reply", { exact: true }).fill(later);
    await page.getByTestId("send-later").locator("summary").click();
    const zone = await page.getByTestId("send-later").getByLabel("Time zone").inputValue();
    await page.getByLabel("Send at (your time)").fill(tomorrowIn(zone));
    await page.getByTestId("contact-local-time").waitFor();
    await page.getByRole("button", { name: "Schedule reply" }).click();
    await toast(page, "Reply scheduled").waitFor();
    const waiting = page.getByTestId("thread-message").filter({ hasText: later });
    await waiting.getByTestId("scheduled").getByText("Scheduled for").waitFor();
    await waiting.getByRole("button", { name: "Cancel scheduled text" }).click();
    await toast(page, "Scheduled text cancelled").waitFor();
    await page.getByTestId("thread-message").filter({ hasText: later }).getByText("skipped").waitFor();
    assert.equal(
      await page.getByTestId("thread-message").filter({ hasText: later }).getByTestId("scheduled").count(),
      0,
    );

    // Suggest a reply: the offline composer answers the price question; nothing is sent until Send.
    await page.getByRole("button", { name: "Suggest a reply" }).click();
    await replyBoxHolds(page, (v) => v.startsWith("Hi Rosa, great question! Pricing depends"), "holds the suggestion");
    const suggestion = await page.locator("#reply-message").inputValue();
    assert.deepEqual(await outgoingWith(context, "Pricing depends", contact.id), []);
    const edited = `${suggestion.slice(0, 60)} ${mode.name}`;
    await page.getByLabel("Reply", { exact: true }).fill(edited);
    await page.getByRole("button", { name: "Send reply" }).click();
    await page.getByTestId("thread").getByText(edited).waitFor();
    assert.equal((await outgoingWith(context, edited, contact.id)).length, 1);
    await context.close();
  });
});
