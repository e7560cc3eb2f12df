// The UI kit's behaviour in a real browser: route dialogs (focus trap, Escape, focus return; links without JS)
// and URL tabs (links without JS; a Radix tablist with arrow keys with JS).
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { BASE, describeEachMode, JS_MODES, sharedBrowser, signedInPage } from "./browser.mjs";
import { atUrl, until } from "./lib.mjs";
import { E2E_USERS } from "./server.mjs";

const browser = sharedBrowser();

/** Where keyboard focus is: inside the open dialog, and a short description of the element. */
const focusInfo = (page) =>
  page.evaluate(() => {
    const el = document.activeElement;
    return {
      inDialog: Boolean(el?.closest('[role="dialog"]')),
      text: (el?.getAttribute("aria-label") || el?.textContent || "").trim(),
      tag: el?.tagName.toLowerCase(),
      href: el?.getAttribute("href"),
    };
  });

describe("route dialog (JS on)", () => {
  it("keeps Tab inside, closes on Escape and gives focus back to the link that opened it", async () => {
    const { context, page } = await signedInPage(browser(), JS_MODES[0], E2E_USERS.user);
    // Start where hydration shows (the Message Center's tablist exists only with JS), then go on client-side.
    await page.goto("/messages");
    await page.getByRole("tablist", { name: "Message tabs" }).waitFor();
    await page.getByRole("link", { name: "Contacts", exact: true }).click();
    await atUrl(page, BASE + "/contacts");
    const opener = page.getByRole("link", { name: "Add Contact" });
    await opener.focus();
    await page.keyboard.press("Enter");
    await atUrl(page, BASE + "/contacts/new");
    const dialog = page.getByRole("dialog", { name: "Add Contact" });
    await dialog.waitFor();
    await page.locator("form#contact-new[novalidate]").waitFor(); // hydrated
    await until(async () => (await focusInfo(page)).inDialog, "focus moved into the dialog");
    assert.equal(await page.evaluate(() => document.activeElement.name), "firstName");

    // More presses than the dialog has controls: focus wraps and never leaves.
    const seen = new Set();
    for (let i = 0; i < 16; i++) {
      await page.keyboard.press("Tab");
      const f = await focusInfo(page);
      assert.ok(f.inDialog, `Tab ${i + 1} left the dialog (on ${f.tag} "${f.text}")`);
      seen.add(`${f.tag}:${f.text}`);
    }
    assert.ok(seen.has("a:Close") && seen.has("button:Add Contact"), [...seen].join(", "));
    for (let i = 0; i < 5; i++) {
      await page.keyboard.press("Shift+Tab");
      assert.ok((await focusInfo(page)).inDialog, `Shift+Tab ${i + 1} left the dialog`);
    }
    // The page behind is locked while the dialog is open.
    assert.equal(await page.evaluate(() => getComputedStyle(document.body).overflow), "hidden");

    await page.keyboard.press("Escape");
    await atUrl(page, BASE + "/contacts");
    await dialog.waitFor({ state: "detached" });
    await until(async () => (await focusInfo(page)).text === "Add Contact", "focus back on Add Contact");
    assert.equal((await focusInfo(page)).href, "/contacts/new");
    assert.notEqual(await page.evaluate(() => getComputedStyle(document.body).overflow), "hidden");

    // A mouse-opened dialog closed with its × link also returns focus to the opener.
    await page.getByRole("link", { name: "Upload CSV" }).click();
    const upload = page.getByRole("dialog", { name: "Upload CSV" });
    await upload.waitFor();
    await upload.getByRole("link", { name: "Close", exact: true }).click();
    await atUrl(page, BASE + "/contacts");
    await upload.waitFor({ state: "detached" });
    await until(async () => (await focusInfo(page)).text === "Upload CSV", "focus back on Upload CSV");
    await context.close();
  });
});

describeEachMode("route dialog close links", (mode) => {
  it("closes to the parent route with the list's query, by Cancel and by the × link", async () => {
    const { context, page } = await signedInPage(browser(), mode, E2E_USERS.user);
    await page.goto("/contacts?q=nobodyatall");
    await page.getByRole("link", { name: "Upload CSV" }).click();
    await atUrl(page, BASE + "/contacts/upload?q=nobodyatall");
    const dialog = page.getByRole("dialog", { name: "Upload CSV" });
    await dialog.waitFor();
    assert.equal(
      await dialog.getByRole("link", { name: "Close", exact: true }).getAttribute("href"),
      "/contacts?q=nobodyatall",
    );
    await dialog.getByRole("link", { name: "Cancel" }).click();
    await atUrl(page, BASE + "/contacts?q=nobodyatall");
    await dialog.waitFor({ state: "detached" });

    // Loaded directly (server markup first): the × link closes it.
    await page.goto("/contacts/new?q=nobodyatall");
    const add = page.getByRole("dialog", { name: "Add Contact" });
    await add.waitFor();
    await add.getByRole("link", { name: "Close", exact: true }).click();
    await atUrl(page, BASE + "/contacts?q=nobodyatall");
    await add.waitFor({ state: "detached" });
    await page.getByText("No contacts match").waitFor();
    await context.close();
  });
});

describeEachMode("URL tabs", (mode) => {
  it("switches Message Center tabs through the URL", async () => {
    const { context, page } = await signedInPage(browser(), mode, E2E_USERS.user);
    await page.goto("/messages");
    if (mode.javaScriptEnabled) {
      const list = page.getByRole("tablist", { name: "Message tabs" });
      await list.waitFor();
      const all = list.getByRole("tab", { name: /^All/ });
      assert.equal(await all.getAttribute("aria-selected"), "true");
      assert.equal(await page.getByRole("tabpanel").getAttribute("aria-labelledby"), await all.getAttribute("id"));
      // Arrow keys move between tabs (focus only); Enter opens the focused one.
      await all.focus();
      // (Radix moves focus a tick after the key press.)
      const focusOn = (re) => until(async () => re.test((await focusInfo(page)).text), `focus on ${re}`);
      await page.keyboard.press("ArrowRight");
      await focusOn(/^Incoming/);
      await page.keyboard.press("ArrowRight");
      await focusOn(/^Outgoing/);
      await page.keyboard.press("ArrowLeft");
      await focusOn(/^Incoming/);
      assert.equal(page.url(), BASE + "/messages");
      await page.keyboard.press("Enter");
      await atUrl(page, BASE + "/messages?tab=incoming");
      await until(
        async () => (await list.getByRole("tab", { name: /^Incoming/ }).getAttribute("aria-selected")) === "true",
        "Incoming selected",
      );
      assert.equal(await all.getAttribute("aria-selected"), "false");
      // A click follows the link too.
      await list.getByRole("tab", { name: /^Failed/ }).click();
      await atUrl(page, BASE + "/messages?tab=failed");
      await until(
        async () => (await list.getByRole("tab", { name: /^Failed/ }).getAttribute("aria-selected")) === "true",
        "Failed selected",
      );
    } else {
      const nav = page.getByRole("navigation", { name: "Message tabs" });
      assert.equal(await nav.getByRole("link", { name: /^All/ }).getAttribute("aria-current"), "page");
      await nav.getByRole("link", { name: /^Failed/ }).click();
      await atUrl(page, BASE + "/messages?tab=failed");
      assert.equal(await nav.getByRole("link", { name: /^Failed/ }).getAttribute("aria-current"), "page");
      assert.equal(await nav.getByRole("link", { name: /^All/ }).getAttribute("aria-current"), null);
      // The search keeps the tab.
      await page.getByPlaceholder("Search messages or phone numbers...").fill("nothing-here");
      await page.getByRole("button", { name: "Search" }).click();
      await atUrl(page, BASE + "/messages?tab=failed&q=nothing-here");
      await page.getByText("No messages found").waitFor();
    }
    await context.close();
  });
});
