// Every screen hydrates with JavaScript on: no uncaught error and no error boundary. (The Auto-Responder screen once
// imported a formatter from a .server module: fine on the server, "formatMs is not a function" in the browser.)
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { JS_MODES, sharedBrowser, signedInPage } from "./browser.mjs";
import { E2E_USERS } from "./server.mjs";

const browser = sharedBrowser();

const SCREENS = [
  "/",
  "/campaigns",
  "/campaigns/new",
  "/messages",
  "/messages/conversations",
  "/contacts",
  "/contacts/new",
  "/contacts/upload",
  "/contacts/quick-send",
  "/testing",
  "/testing?tab=broadcast",
  "/testing?tab=variables",
  "/idea-generator",
  "/auto-responder",
  "/auto-responder/new",
  "/smart-alerts",
  "/smart-alerts?tab=banks",
  "/test-smart-alerts",
  "/alerts",
  "/analytics",
  "/user-analytics",
  "/knowledge-base",
  "/account",
];

describe("hydration (JS on)", () => {
  it("every screen hydrates without an uncaught error or an error page", async () => {
    const { context, page } = await signedInPage(browser(), JS_MODES[0], E2E_USERS.admin);
    const errors = [];
    page.on("pageerror", (err) => errors.push(`${page.url()}: ${err.message}`));
    for (const path of SCREENS) {
      await page.goto(path);
      // Hydrated: Remix's router is on the window once the client entry ran.
      await page.waitForFunction(() => Boolean(window.__remixRouter), null, { timeout: 15_000 });
      await page.waitForLoadState("networkidle");
      assert.equal(await page.getByText("Something went wrong").count(), 0, `${path} shows the error page`);
    }
    assert.deepEqual(errors, []);
    await context.close();
  });
});
