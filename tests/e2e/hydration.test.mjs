// Every screen hydrates with JavaScript on: no uncaught error and no error boundary. (The Auto-Responder screen once
// imported a formatter from a .server module: fine on the server, "formatMs is not a function" in the browser.)
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { describe, it } from "node:test";
import { JS_MODES, sharedBrowser, signedInPage } from "./browser.mjs";
import { E2E_USERS } from "./server.mjs";

const browser = sharedBrowser();

// Every page of the app's layout with no parameter in its path, from the route table the unit tests keep
// (app/routes/route-table.snapshot.txt): a new screen is covered the day it lands. /messages/mentions once rendered a
// number imported from a .server module — present on the server, undefined in the browser — and hydration failed.
const TABLE = readFileSync(new URL("../../app/routes/route-table.snapshot.txt", import.meta.url), "utf8");
const PAGES = TABLE.split("\n")
  .filter((line) => line.includes(" in layout(/)"))
  .map((line) => line.split(" ")[0])
  .filter((path) => !path.includes(":") && !path.includes("*"));
// Tabs and states that render other parts of a screen.
const VARIANTS = ["/testing?tab=broadcast", "/testing?tab=variables", "/smart-alerts?tab=banks"];
const SCREENS = [...new Set([...PAGES, ...VARIANTS])];

describe("hydration (JS on)", () => {
  it("every screen hydrates without an uncaught error or an error page", async () => {
    assert.ok(PAGES.length >= 30, `route table read: ${PAGES.length} pages`);
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
