// The Idea Generator in a real browser, JS on and off: a quick prompt gets an answer with at most 3 suggestions,
// a suggestion is sent as the next prompt, typed questions are sent (Enter with JS), and Clear Chat empties the
// thread (kept on the server, so it survives a reload).
import assert from "node:assert/strict";
import { it } from "node:test";
import { BASE, describeEachMode, sharedBrowser, signedInPage } from "./browser.mjs";
import { until } from "./lib.mjs";
import { E2E_USERS } from "./server.mjs";

const browser = sharedBrowser();

const answers = (page) => page.getByTestId("chat-assistant-message");

async function clearChat(page) {
  const clear = page.getByRole("button", { name: "Clear Chat" });
  if (await clear.isEnabled()) await clear.click();
  await page.getByText("No messages yet").waitFor();
}

describeEachMode("Idea Generator", (mode) => {
  it("answers a quick prompt with at most 3 suggestions, follows a suggestion, and clears the chat", async () => {
    const { context, page } = await signedInPage(browser(), mode, E2E_USERS.user);
    try {
      await page.goto("/idea-generator");
      await clearChat(page);
      assert.equal(await page.getByTestId("quick-prompt").count(), 6);

      // With JS the answer streams in from /idea-generator/stream; without JS the form posts to the page.
      const streamed = [];
      page.on("request", (r) => r.url().endsWith("/idea-generator/stream") && streamed.push(r.method()));
      await page.getByRole("button", { name: "Ideas for a neighborhood referral campaign" }).click();
      await until(async () => (await answers(page).count()) === 1, "first answer");
      assert.deepEqual(streamed, mode.javaScriptEnabled ? ["POST"] : []);
      const first = answers(page).first();
      assert.match(await first.innerText(), /referral/i);
      const suggestions = first.getByTestId("chat-suggestion");
      const n = await suggestions.count();
      assert.ok(n >= 1 && n <= 3, `${n} suggestions shown`);
      assert.equal(
        await page
          .getByTestId("chat-user-message")
          .first()
          .innerText()
          .then((t) => t.includes("Ideas for a neighborhood referral campaign")),
        true,
      );

      // "Use as template" copies the answer into the Testing screen's Create Template card.
      const answerText = (await first.locator("p.whitespace-pre-wrap").innerText()).trim();
      await first.getByRole("link", { name: "Use as template" }).click();
      await until(async () => /\/testing\?draft=/.test(page.url()), "on the Testing screen");
      const content = page.getByTestId("create-template").getByLabel("Template content");
      await until(
        async () => (await content.inputValue()).trim() === answerText.slice(0, 1500).trim(),
        "the answer in the template form",
      );
      await page.goBack();
      await until(async () => (await answers(page).count()) === 1, "back on the thread");

      // A suggestion is sent as the next prompt.
      const suggestion = (await suggestions.first().innerText()).trim();
      await suggestions.first().click();
      await until(async () => (await answers(page).count()) === 2, "answer to the suggestion");
      assert.ok((await page.getByTestId("chat-user-message").nth(1).innerText()).includes(suggestion));

      // A typed question; with JS Enter sends (and an empty input is ignored), without JS the Send button posts.
      const input = page.getByTestId("chat-input");
      if (mode.javaScriptEnabled) {
        await page.locator("form").filter({ has: input }).waitFor();
        await input.focus();
        await page.keyboard.press("Enter"); // empty: ignored
        await input.fill("How do I handle the HOA objection?");
        await page.keyboard.press("Enter");
      } else {
        await input.fill("How do I handle the HOA objection?");
        await page.getByRole("button", { name: "Send" }).click();
      }
      await until(async () => (await answers(page).count()) === 3, "answer to the typed question");
      assert.equal(await page.getByTestId("chat-user-message").count(), 3);

      // Kept on the server: a reload shows the same thread.
      await page.reload();
      await until(async () => (await answers(page).count()) === 3, "thread after reload");

      await clearChat(page);
      assert.equal(await answers(page).count(), 0);
    } finally {
      await context.close();
    }
  });

  // Offline (no model in e2e): the composer answers the request it was given, and a follow-up transforms it.
  it("answers a copy request with what was asked for, and 'Make them shorter' shortens the same texts", async () => {
    const { context, page } = await signedInPage(browser(), mode, E2E_USERS.user);
    try {
      await page.goto("/idea-generator");
      await clearChat(page);
      const input = page.getByTestId("chat-input");
      if (mode.javaScriptEnabled) await page.locator("form").filter({ has: input }).waitFor();
      await input.fill("Write 3 texts for renters about battery storage");
      await page.getByRole("button", { name: "Send" }).click();
      await until(async () => (await answers(page).count()) === 1, "first answer");
      const texts = async (i) =>
        (await answers(page).nth(i).locator("p.whitespace-pre-wrap").innerText())
          .split("\n")
          .filter((l) => /^\d+\. /.test(l));
      const before = await texts(0);
      assert.equal(before.length, 3, before.join("\n"));
      for (const t of before) assert.ok(t.replace(/^\d+\. /, "").length <= 160, t);
      await answers(page).first().getByTestId("chat-suggestion").filter({ hasText: "Make them shorter" }).click();
      await until(async () => (await answers(page).count()) === 2, "answer to the follow-up");
      const after = await texts(1);
      assert.equal(after.length, 3, after.join("\n"));
      assert.ok(after.join("").length < before.join("").length, `${after.join("")} is not shorter`);
      await clearChat(page);
    } finally {
      await context.close();
    }
  });
});

// "Generate with AI" in the campaign step editor: with JS the draft is written into the add form's fields; without
// JS the assistant's own form posts to /ai/generate-step, which redirects back with the draft as the form's defaults.
describeEachMode("Generate with AI in the step editor", (mode) => {
  it("fills the add form's content from an option and saves the step; rewrites a step in the inline edit form", async () => {
    const { context, page } = await signedInPage(browser(), mode, E2E_USERS.user);
    try {
      const name = `AI drip ${mode.javaScriptEnabled ? "js" : "nojs"} ${Date.now().toString(36)}`;
      const created = await context.request.post(BASE + "/api/campaigns", {
        data: { name, description: "Solar savings for homeowners in Austin" },
        headers: { Origin: BASE },
      });
      assert.equal(created.status(), 201, await created.text());
      const campaign = await created.json();
      const first = await context.request.post(BASE + "/api/campaign-steps", {
        data: {
          campaignId: campaign.id,
          name: "Intro",
          messageType: "sms",
          content: "Hi {{firstName}}, solar for your roof? Reply STOP to opt out",
          delayDays: 0,
          delayHours: 0,
        },
        headers: { Origin: BASE },
      });
      assert.equal(first.status(), 201, await first.text());

      const stepsUrl = `${BASE}/campaigns/${campaign.id}/steps`;
      await page.goto(stepsUrl);
      const dialog = page.getByRole("dialog", { name: `Steps — ${name}` });
      const add = dialog.getByTestId("add-step-form");
      const assistant = dialog.getByTestId("ai-assist-slot").getByTestId("generate-with-ai");
      // Hydrated: the segment counter only renders with JS (a click before that would take the no-JS path).
      if (mode.javaScriptEnabled) await add.getByTestId("add-segments").waitFor();
      assert.equal(await add.getByLabel("Content").inputValue(), "");
      assert.equal(await add.getByLabel("Step name").inputValue(), "");

      await assistant.getByRole("button", { name: "Follow-up" }).click();
      await until(async () => (await add.getByLabel("Content").inputValue()).trim().length > 0, "generated content");
      const content = await add.getByLabel("Content").inputValue();
      assert.ok(content.length >= 20 && content.length <= 320, `draft of ${content.length} characters: ${content}`);
      assert.equal(await dialog.getByTestId("generate-ai-error").count(), 0);
      // The campaign name is internal (decision 025); the empty name field is filled.
      assert.doesNotMatch(content, /AI drip/i);
      await until(
        async () => (await add.getByLabel("Step name").inputValue()) === "Follow-up text",
        "generated step name",
      );
      // JS fills the field in place; without JS the draft came back in the query.
      if (mode.javaScriptEnabled) assert.equal(page.url(), stepsUrl);
      else assert.match(page.url(), /[?&]aiContent=.*&aiOption=follow-up/);

      await add.getByLabel("Step name").fill("AI follow-up");
      await add.getByRole("button", { name: "Add Step" }).press("Enter");
      await until(async () => page.url() === stepsUrl, "back on the step list");
      const saved = dialog.getByTestId("step-row").filter({ hasText: "AI follow-up" });
      await saved.waitFor();
      assert.equal((await saved.getByTestId("step-content").innerText()).trim(), content.trim());
      assert.equal(await add.getByLabel("Content").inputValue(), "");

      // The inline edit form has its own assistant: it rewrites step 1 in place.
      await dialog.getByRole("link", { name: "Edit step 1" }).press("Enter");
      await until(async () => /\?edit=\d+$/.test(page.url()), "edit form open");
      const editRow = dialog.getByTestId("step-row").filter({ hasText: "Editing step 1" });
      const original = await editRow.getByLabel("Content").inputValue();
      await editRow.getByTestId("generate-with-ai").getByRole("button", { name: "Introduction" }).press("Enter");
      await until(async () => (await editRow.getByLabel("Content").inputValue()) !== original, "regenerated step 1");
      const rewritten = await editRow.getByLabel("Content").inputValue();
      assert.ok(rewritten.trim().length >= 20, rewritten);
      assert.doesNotMatch(rewritten, /AI drip/i);
      // The introduction names the rep (issue 24, item 8): {{salesRep}} renders from the campaign's owner at send time.
      assert.match(rewritten, /\{\{salesRep\}\}/);
      // A step's own name is never replaced.
      assert.equal(await editRow.getByLabel("Step name").inputValue(), "Intro");
      if (!mode.javaScriptEnabled) assert.match(page.url(), /[?&]edit=\d+.*aiOption=introduction/);
      await editRow.getByRole("button", { name: "Save" }).press("Enter");
      await until(async () => page.url() === stepsUrl, "back on the step list after editing");
      const step1 = dialog.getByTestId("step-row").filter({ hasText: "Intro" }).first();
      await until(
        async () => (await step1.getByTestId("step-content").innerText()).trim() === rewritten.trim(),
        "step 1 saved with the draft",
      );

      if (mode.javaScriptEnabled) {
        // An email step gets a subject too: the request follows the type chosen in the add form.
        await add.getByLabel("Type").selectOption("email");
        await assistant.getByRole("button", { name: "Value" }).click();
        await until(
          async () => (await add.getByLabel("Subject (email steps)").inputValue()).trim().length > 0,
          "generated subject",
        );
        assert.ok((await add.getByLabel("Content").inputValue()).trim().length > 0);
      }
    } finally {
      await context.close();
    }
  });
});
