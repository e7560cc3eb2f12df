import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { BASE, describeEachMode, JS_MODES, PHONE_WINDOW, sharedBrowser, signedInPage } from "./browser.mjs";
import { until } from "./lib.mjs";
import { E2E_USERS } from "./server.mjs";

const browser = sharedBrowser();

describeEachMode("auth and layout", (mode) => {
  it("shows the login screen at any path when signed out", async () => {
    const context = await browser().newContext({ javaScriptEnabled: mode.javaScriptEnabled, baseURL: BASE });
    const page = await context.newPage();
    await page.goto("/campaigns");
    assert.equal(new URL(page.url()).pathname, "/login");
    await page.getByText("Solar Sales Communication Platform").waitFor();
    assert.equal(await page.getAttribute('input[name="email"]', "placeholder"), "Enter your email");
    assert.equal(await page.getAttribute('input[name="email"]', "type"), "email");
    assert.equal(await page.getAttribute('input[name="password"]', "placeholder"), "Enter your password");
    await page.getByText("Need credentials? Contact your administrator.").waitFor();
    await context.close();
  });

  it("logs in, shows the shell, navigates, 404s, logs out and kills the old cookie", async () => {
    const { context, page } = await signedInPage(browser(), mode, E2E_USERS.admin);
    await page.getByTestId("toast").getByText("Login successful").waitFor();
    assert.equal(await page.getByTestId("user-name").textContent(), "Avery Admin");
    assert.equal(await page.getByTestId("user-role").textContent(), "SUPERUSER");
    assert.equal(await page.getByTestId("header-title").textContent(), "Dashboard");
    const oldCookies = await context.cookies();

    for (const [label, path, title] of [
      ["Contacts", "/contacts", "Contacts"],
      ["Campaigns", "/campaigns", "Campaigns"],
      ["Knowledge Base", "/knowledge-base", "Dashboard"],
    ]) {
      await Promise.all([page.waitForURL(BASE + path), page.getByRole("link", { name: label, exact: true }).click()]);
      await page.locator('[data-testid="header-title"]', { hasText: new RegExp(`^${title}$`) }).waitFor();
      assert.equal(
        await page.locator('nav a[aria-current="page"]').textContent(),
        `${await page.locator('nav a[aria-current="page"] span').textContent()}${label}`,
      );
    }

    await page.goto("/no-such-page");
    await page.getByText("404 Page Not Found").waitFor();

    await Promise.all([page.waitForURL(BASE + "/login"), page.getByRole("button", { name: "Logout" }).click()]);
    await page.getByTestId("toast-title").getByText("Logged out successfully").waitFor();

    // The old session cookie is dead on the server, not just deleted in this browser.
    const replay = await browser().newContext({ javaScriptEnabled: mode.javaScriptEnabled, baseURL: BASE });
    await replay.addCookies(oldCookies);
    const p2 = await replay.newPage();
    await p2.goto("/");
    assert.equal(new URL(p2.url()).pathname, "/login");
    await replay.close();
    await context.close();
  });

  it("refuses a wrong password and a deactivated user with a clear message", async () => {
    const context = await browser().newContext({ javaScriptEnabled: mode.javaScriptEnabled, baseURL: BASE });
    const page = await context.newPage();
    await page.goto("/login");
    await page.fill('input[name="email"]', E2E_USERS.user.email);
    await page.fill('input[name="password"]', "not-the-password");
    await page.click('button[type="submit"]');
    await page.getByText("Invalid email or password").first().waitFor();
    await page.getByText("Login failed").first().waitFor();

    await page.fill('input[name="email"]', E2E_USERS.inactive.email);
    await page.fill('input[name="password"]', E2E_USERS.inactive.password);
    await page.click('button[type="submit"]');
    await page.getByText("Your account is inactive. Contact your administrator.").first().waitFor();
    assert.equal(new URL(page.url()).pathname, "/login");
    await context.close();
  });
});

describe("login without a server call when fields are empty (JS on)", () => {
  it("shows the Missing credentials toast and sends nothing", async () => {
    const context = await browser().newContext({ baseURL: BASE });
    const page = await context.newPage();
    await page.goto("/login");
    await page.waitForFunction(() => document.querySelector("form[novalidate]"));
    const posts = [];
    page.on("request", (r) => r.method() === "POST" && posts.push(r.url()));
    await page.click('button[type="submit"]');
    await page.getByTestId("toast-title").getByText("Missing credentials").waitFor();
    await page.getByText("Please enter both email and password").first().waitFor();
    assert.deepEqual(posts, []);
    await context.close();
  });
});

describe("small screens", () => {
  for (const mode of JS_MODES) {
    it(`opens the sidebar and closes it with the overlay (${mode.name})`, async () => {
      // A phone-sized window from the start: resizing a wide page would catch the sidebar mid-slide.
      const { context, page } = await signedInPage(browser(), mode, E2E_USERS.user, PHONE_WINDOW);
      const sidebar = page.locator("#sidebar");
      const x = async () => (await sidebar.boundingBox()).x;
      assert.ok((await x()) < 0, "sidebar starts hidden off-screen");
      await page.getByRole("link", { name: "Open menu" }).click();
      await until(async () => (await x()) >= 0);
      const overlay = page.locator(".sidebar-overlay");
      await overlay.waitFor({ state: "visible" });
      await page.waitForTimeout(300); // let the slide-in transition finish before clicking past it
      await overlay.click({ position: { x: 370, y: 400 } });
      await until(async () => (await x()) < 0);
      await context.close();
    });
  }
});
