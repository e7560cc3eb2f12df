import assert from "node:assert/strict";
import { readFile } from "node:fs/promises";
import { it } from "node:test";
import { BASE, describeEachMode, sharedBrowser, signedInPage } from "./browser.mjs";
import { phoneInCallingHours, setOwnPhone } from "./lib.mjs";
import { E2E_USERS } from "./server.mjs";

const browser = sharedBrowser();

// 602 with an exchange that is never N11 or 555 (numbers Helio refuses as unsendable).
const randomPhone = () => {
  const d = (lo, hi) => lo + Math.floor(Math.random() * (hi - lo + 1));
  return `+1602${d(2, 4)}${d(0, 9)}${d(2, 9)}${String(d(0, 9999)).padStart(4, "0")}`;
};
const tag = () => Math.random().toString(36).slice(2, 8);

// After a client-side navigation the form re-renders a moment after the URL changes: wait for the value.
async function hasValue(locator, expected) {
  for (let i = 0; i < 50; i++) {
    if ((await locator.inputValue()) === expected) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  assert.equal(await locator.inputValue(), expected);
}

// The send is queued by the form's POST; with JS that completes after the click resolves (the URL does not change),
// so look for the message until it is there (or give up after 15 s).
async function outgoing(context, text) {
  for (let i = 0; i < 30; i++) {
    const list = await (await context.request.get(BASE + "/api/messages?tab=outgoing&limit=100")).json();
    const found = list.find((m) => m.content === text);
    if (found) return found;
    await new Promise((r) => setTimeout(r, 500));
  }
  return undefined;
}

describeEachMode("Message Testing Playground", (mode) => {
  it("the variables reference lists all 31 variables, grouped by category", async () => {
    const { context, page } = await signedInPage(browser(), mode, E2E_USERS.user);
    await page.goto("/testing");
    await page.getByTestId("page-title").getByText("Message Testing Playground").waitFor();
    await page.getByText("Show all variables").click();
    assert.equal(await page.getByTestId("variable-item").count(), 31);
    assert.equal(await page.getByTestId("variable-category").count(), 6);
    await page.getByText("{{firstName}}").first().waitFor();
    await context.close();
  });

  // Each channel's form: refused with SPEC's message while a field is missing, then written to the outbox.
  const MANUAL = [
    {
      channel: "SMS",
      path: "/testing?tab=manual",
      button: "Send Test SMS",
      incomplete: async () => {},
      error: "Please enter phone number and message",
      // Test texts go only to team members in their calling hours (decision 021): the rep's own number.
      fill: async (page, text, context) => {
        const own = phoneInCallingHours();
        if (!own) return false; // the one hour a day no US zone is in calling hours (test-send-caps.test.ts covers it)
        await setOwnPhone(context, E2E_USERS.user, own);
        await page.getByLabel("Phone number").fill(own);
        await page.getByLabel("Message", { exact: true }).fill(text);
        return true;
      },
      sentUrl: /\/testing\?tab=manual$/,
    },
    {
      channel: "email",
      path: "/testing?tab=manual&type=email",
      button: "Send Test Email",
      incomplete: (page) => page.getByLabel("Email", { exact: true }).fill("someone@example.com"),
      error: "Please enter email, subject, and content",
      fill: async (page, text) => {
        await page.getByLabel("Email", { exact: true }).fill(E2E_USERS.user.email); // test emails go only to the team
        await page.getByLabel("Subject", { exact: true }).fill("Hello");
        await page.getByLabel("Content", { exact: true }).fill(text);
        return true;
      },
      sentUrl: /type=email$/,
    },
  ];
  for (const t of MANUAL) {
    it(`a manual ${t.channel} test: refused without fields, then queued`, async () => {
      const { context, page } = await signedInPage(browser(), mode, E2E_USERS.user);
      await page.goto(t.path);
      await t.incomplete(page);
      await page.getByRole("button", { name: t.button }).click();
      await page.getByTestId("form-error").getByText(t.error).waitFor();
      const text = `E2E playground ${t.channel.toLowerCase()} ${mode.name} ${tag()}`;
      if (!(await t.fill(page, text, context))) return context.close();
      await Promise.all([page.waitForURL(t.sentUrl), page.getByRole("button", { name: t.button }).click()]);
      assert.ok(await outgoing(context, text), `the test ${t.channel} was written`);
      await context.close();
    });
  }

  it("a test text to a number outside the team is refused on the form; the screen counts the test sends left", async () => {
    const { context, page } = await signedInPage(browser(), mode, E2E_USERS.user);
    await page.goto("/testing?tab=manual");
    assert.match(await page.getByTestId("test-sends-left").innerText(), /^\d+ of 10 test sends left this hour$/);
    await page.getByLabel("Phone number").fill(randomPhone());
    await page.getByLabel("Message", { exact: true }).fill(`Huge solar savings ${tag()}`);
    await page.getByRole("button", { name: "Send Test SMS" }).click();
    await page
      .getByTestId("form-error")
      .getByText("Test texts go only to your own number or a team member's")
      .waitFor();
    await context.close();
  });

  it("creates a template and uses it", async () => {
    const { context, page } = await signedInPage(browser(), mode, E2E_USERS.user);
    await page.goto("/testing?tab=manual");
    await page.getByRole("button", { name: "Save Template" }).click();
    await page.getByTestId("form-error").getByText("Please fill in template name and content").waitFor();
    const name = `Tpl ${tag()}`;
    const content = `Hi {{firstName}}, ${name}. Reply STOP to opt out`;
    await page.getByLabel("Template name").fill(name);
    await page.getByLabel("Template content").fill(content);
    // Saving opens the manual test pre-filled with the new template (?template=<id>).
    await Promise.all([page.waitForURL(/template=\d+/), page.getByRole("button", { name: "Save Template" }).click()]);
    await hasValue(page.getByLabel("Message", { exact: true }), content);
    const list = await (await context.request.get(BASE + "/api/templates")).json();
    assert.deepEqual(list.find((t) => t.name === name)?.variables, ["firstName"]);

    // Using it on another tab: the picker (a select with JS, a GET form without).
    await page.goto("/testing?tab=broadcast");
    await page.getByLabel("Use a template").first().selectOption({ label: name });
    if (!mode.javaScriptEnabled)
      await Promise.all([page.waitForURL(/template=\d+/), page.getByTestId("template-apply").first().click()]);
    await hasValue(page.locator("#broadcast-content"), content);
    await context.close();
  });

  it("a broadcast to picked contacts through the pre-send check, then its progress page", async () => {
    const { context, page } = await signedInPage(browser(), mode, E2E_USERS.user);
    const last = `Bcast${tag()}`;
    for (const first of ["Ann", "Bob"]) {
      const res = await context.request.post(BASE + "/api/contacts", {
        data: { firstName: first, lastName: last, phone: randomPhone() },
        headers: { Origin: BASE },
      });
      assert.equal(res.status(), 201, await res.text());
    }
    await page.goto("/testing?tab=broadcast");
    await page.getByRole("button", { name: "Review and send" }).click();
    await page.getByTestId("form-error").getByText("Please enter message content").waitFor();
    await page.getByLabel("Message", { exact: true }).fill("Hi {{firstName}}, solar savings inside: https://bit.ly/x");
    // Search: the typed message travels with the GET (no JS: the same form submitted by GET).
    await page.getByLabel("Search contacts").fill(last);
    await Promise.all([page.waitForURL(/q=/), page.getByTestId("picker-search").click()]);
    await page.getByTestId("picker-list").getByText(`Ann ${last}`).waitFor();
    await page.getByRole("button", { name: "Review and send" }).click();
    await page.getByTestId("form-error").getByText("Please select at least one contact").waitFor();
    await page.getByLabel(`Ann ${last}`).check();
    await page.getByLabel(`Bob ${last}`).check();
    // A public shortener is refused for SMS (carriers filter them, issue 29); the draft and the picks stay.
    await page.getByRole("button", { name: "Review and send" }).click();
    await page.getByTestId("form-error").getByText("Links through bit.ly are filtered by carriers").waitFor();
    assert.ok(await page.getByLabel(`Bob ${last}`).isChecked());
    await page
      .getByLabel("Message", { exact: true })
      .fill("Hi {{firstName}}, solar savings inside: https://helio.example/x");
    await page.getByRole("button", { name: "Review and send" }).click();
    const check = page.getByTestId("presend-check");
    await check.waitFor();
    assert.equal(await page.getByTestId("check-recipients").textContent(), "2");
    assert.match(await page.getByTestId("check-segments").textContent(), /1 per message .*2 in total/);
    // 2 segments at the default $0.0113 (Organisation's price per segment), rounded up to the cent.
    assert.match(await page.getByTestId("check-cost").textContent(), /^\$0\.03 \(2 segments × \$0\.0113/);
    const warnings = await page.getByTestId("check-warning").allTextContents();
    assert.ok(
      warnings.some((w) => w.includes("opt-out wording")),
      warnings.join("|"),
    );
    // The same check one row per contact (issue 29 item 4): a plain form post the browser downloads, JS on or off.
    const [download] = await Promise.all([page.waitForEvent("download"), page.getByTestId("presend-download").click()]);
    assert.match(download.suggestedFilename(), /^presend-check-\d{4}-\d{2}-\d{2}\.csv$/);
    const list = (await readFile(await download.path(), "utf8")).trim().split("\r\n");
    assert.equal(list.length, 3, list.join("\n"));
    assert.match(list[0], /^"contact_id","name","to","state_rules","time_zone","outcome"/);
    assert.ok(
      list.some((l) => l.includes(`"Ann ${last}"`) && /"(Sends|Deferred)"/.test(l)),
      list.join("\n"),
    );
    await Promise.all([page.waitForURL(/\/testing\/sends\/\d+$/), page.getByTestId("confirm-send").click()]);
    await page.getByTestId("send-progress").waitFor();
    await page.getByText("SMS to 2 recipients").waitFor();
    await page.getByTestId("progress-counts").getByText("Delivered").waitFor();
    await context.close();
  });

  it("Confirm sends to the recipients the check promised; a refused confirm keeps the draft (issue 24)", async () => {
    const { context, page } = await signedInPage(browser(), mode, E2E_USERS.user);
    const last = `Promise${tag()}`;
    const ids = [];
    for (const [first, state] of [
      ["Ann", "CA"],
      ["Bob", "AZ"],
      ["Cy", ""],
    ]) {
      const res = await context.request.post(BASE + "/api/contacts", {
        data: { firstName: first, lastName: last, phone: randomPhone(), state },
        headers: { Origin: BASE },
      });
      assert.equal(res.status(), 201, await res.text());
      ids.push((await res.json()).id);
    }
    await page.goto(`/testing?tab=broadcast&q=${last}`);
    await page.getByText("{{firstName|there}} uses").waitFor(); // the fallback syntax, where variables are typed
    await page
      .getByLabel("Message", { exact: true })
      .fill("Hi {{firstName}}, solar in {{state}} pays. Reply STOP to opt out");
    for (const first of ["Ann", "Bob", "Cy"]) await page.getByLabel(`${first} ${last}`).check();
    if (mode.javaScriptEnabled) await page.getByTestId("picked-count").getByText("3 selected").waitFor();
    await page.getByRole("button", { name: "Review and send" }).click();
    await page.getByTestId("presend-check").waitFor();
    assert.equal(await page.getByTestId("check-recipients").textContent(), "2"); // Cy has no state
    await Promise.all([page.waitForURL(/\/testing\/sends\/\d+$/), page.getByTestId("confirm-send").click()]);
    await page.getByText("SMS to 2 recipients").waitFor();

    // The check passes, then every picked contact is deleted before Confirm: refused, and the draft stays.
    const text = `Draft ${tag()} for {{firstName}}, reply STOP to opt out`;
    await page.goto(`/testing?tab=broadcast&q=${last}`);
    await page.getByLabel("Message", { exact: true }).fill(text);
    await page.getByLabel(`Ann ${last}`).check();
    await page.getByRole("button", { name: "Review and send" }).click();
    await page.getByTestId("presend-check").waitFor();
    const del = await context.request.delete(BASE + `/api/contacts/${ids[0]}`, { headers: { Origin: BASE } });
    assert.ok(del.ok(), String(del.status()));
    await page.getByTestId("confirm-send").click();
    await page.getByTestId("form-error").waitFor();
    assert.equal(await page.getByLabel("Message", { exact: true }).inputValue(), text);
    assert.match(await page.getByTestId("picked-count").textContent(), /^1 selected/);
    await context.close();
  });

  it("Variable Testing renders a message with sample data: unknown tokens, characters, segments", async () => {
    const { context, page } = await signedInPage(browser(), mode, E2E_USERS.user);
    await page.goto("/testing?tab=variables");
    await page.getByLabel("Message", { exact: true }).fill("Hi {{firstName}} from {{company}} {{nope}}");
    await Promise.all([page.waitForURL(/content=/), page.getByRole("button", { name: "Render" }).click()]);
    await page.getByTestId("rendered-text").getByText("Hi John from").waitFor();
    await page.getByText("Unknown: {{nope}}").waitFor();
    await page.getByText("1 SMS segment (GSM-7)").waitFor();
    await context.close();
  });
});
