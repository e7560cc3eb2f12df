import assert from "node:assert/strict";
import { it } from "node:test";
import { describeEachMode, sharedBrowser, signedInPage } from "./browser.mjs";
import { toast, until } from "./lib.mjs";
import { E2E_USERS } from "./server.mjs";

// Issue 27 item 7 (decision 049): Helio installs as an app — the manifest and its icons load, the page links them,
// the service worker registers only with JS and keeps nothing but static files (not after logout either) — and the
// account screen's notification settings save as a plain form. JS on and off.
const browser = sharedBrowser();

/** Every path in the page's Cache Storage (the service worker's caches). */
const cachedPaths = (page) =>
  page.evaluate(async () => {
    const out = [];
    for (const name of await caches.keys())
      for (const req of await (await caches.open(name)).keys()) out.push(new URL(req.url).pathname);
    return out;
  });
const isStatic = (p) =>
  p.startsWith("/build/") || p.startsWith("/icons/") || p === "/favicon.svg" || p === "/offline.html";

describeEachMode("installable app", (mode) => {
  it("the manifest and icons load, and the service worker keeps only static files, through logout", async () => {
    const { context, page } = await signedInPage(browser(), mode, E2E_USERS.user);
    const href = await page.locator('link[rel="manifest"]').getAttribute("href");
    assert.equal(href, "/manifest.webmanifest");
    const res = await page.request.get(href);
    assert.equal(res.status(), 200);
    assert.match(res.headers()["content-type"], /^application\/manifest\+json/);
    const manifest = await res.json();
    assert.equal(manifest.display, "standalone");
    for (const icon of manifest.icons) {
      const png = await page.request.get(icon.src);
      assert.equal(png.status(), 200, icon.src);
      assert.equal(png.headers()["content-type"], "image/png");
      assert.deepEqual([...(await png.body()).subarray(1, 4)], [0x50, 0x4e, 0x47]); // "PNG"
    }
    const sw = await page.request.get("/sw.js");
    assert.equal(sw.status(), 200);
    if (!mode.javaScriptEnabled) {
      // Without JS nothing registers, and the app works as before (the sign-in above, the pages below).
      await page.goto("/account");
      await page.getByTestId("push-settings").waitFor();
      await context.close();
      return;
    }
    await until(
      () => page.evaluate(async () => !!(await navigator.serviceWorker.getRegistration("/"))?.active),
      "the service worker is active",
    );
    // Signed-in pages through the worker: none of them is kept.
    for (const path of ["/contacts", "/account", "/conversations"]) await page.goto(path);
    const kept = await cachedPaths(page);
    assert.ok(kept.includes("/offline.html"), JSON.stringify(kept));
    assert.deepEqual(
      kept.filter((p) => !isStatic(p)),
      [],
    );
    // Sign out: the caches are cleared (Clear-Site-Data, and the page's message to the worker); at most the login
    // page's static files come back.
    await page.goto("/account");
    await Promise.all([page.waitForURL(/\/login/), page.locator('form[action="/logout"] button').first().click()]);
    await until(async () => !(await cachedPaths(page)).includes("/offline.html"), "the caches are cleared");
    assert.deepEqual(
      (await cachedPaths(page)).filter((p) => !isStatic(p)),
      [],
    );
    await context.close();
  });

  it("the account screen's notification settings save without JavaScript", async () => {
    const { context, page } = await signedInPage(browser(), mode, E2E_USERS.user);
    await page.goto("/account");
    const card = page.getByTestId("push-settings");
    // No VAPID keys on the e2e server: the card says push is off.
    await card.getByTestId("push-off").waitFor();
    const replies = card.getByLabel("Replies in my queue");
    for (const want of [false, true]) {
      await replies.setChecked(want);
      await card.getByRole("button", { name: "Save notification settings" }).click();
      await toast(page, "Notification settings saved").waitFor();
      await page.goto("/account");
      assert.equal(await page.getByTestId("push-settings").getByLabel("Replies in my queue").isChecked(), want);
      assert.equal(
        await page.getByTestId("push-settings").getByLabel("Hot-lead alerts for my contacts").isChecked(),
        true,
      );
    }
    await context.close();
  });
});
