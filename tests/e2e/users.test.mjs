import assert from "node:assert/strict";
import { it } from "node:test";
import { BASE, describeEachMode, sharedBrowser, signedInPage } from "./browser.mjs";
import { E2E_USERS } from "./server.mjs";

const browser = sharedBrowser();

describeEachMode("user analytics and management", (mode) => {
  it("an admin views users, opens details, reads logs, creates a user and deactivates them", async () => {
    const { context, page } = await signedInPage(browser(), mode, E2E_USERS.admin);
    await page.goto("/user-analytics");
    await page.getByTestId("page-title").getByText("User Analytics").waitFor();
    const stats = page.getByTestId("user-stats");
    for (const label of ["Total Users", "Active Users", "Total Activity", "Recent Activity"])
      await stats.getByText(label).waitFor();
    const rep = page.getByTestId("user-row").filter({ hasText: E2E_USERS.user.email });
    await rep.getByText("Riley Rep").waitFor();

    // View Details selects the user and opens the Details tab (in the URL).
    await Promise.all([
      page.waitForURL(/tab=details&user=\d+/),
      rep.getByRole("link", { name: "View Details" }).click(),
    ]);
    const details = page.getByTestId("user-details");
    await details.getByText(E2E_USERS.user.email, { exact: true }).waitFor();
    await details.getByText("Login History").waitFor();

    // Activity Logs: the admin's own sign-in is there.
    await Promise.all([
      page.waitForURL(/tab=logs/),
      page.getByRole(mode.javaScriptEnabled ? "tab" : "link", { name: "Activity Logs" }).click(),
    ]);
    await page.getByTestId("log-row").filter({ hasText: "login" }).first().waitFor();

    // Create a user: the one-time password is shown once.
    const email = `new-${mode.javaScriptEnabled ? "js" : "nojs"}-${Date.now()}@e2e.test`;
    await Promise.all([page.waitForURL(/\/user-analytics\/new/), page.getByRole("link", { name: "Add User" }).click()]);
    const form = page.getByTestId("new-user-form");
    await form.getByLabel("First Name").fill("Nova");
    await form.getByLabel("Last Name").fill("Newman");
    await form.getByLabel("Email").fill(email);
    await form.getByRole("button", { name: "Create User" }).click();
    const password = (await page.getByTestId("one-time-password").textContent()).trim();
    assert.match(password, /^[A-Za-z0-9]{16}$/);

    // The new user signs in with it and must change it first.
    const fresh = await browser().newContext({ javaScriptEnabled: mode.javaScriptEnabled, baseURL: BASE });
    const np = await fresh.newPage();
    await np.goto("/login");
    await np.fill('input[name="email"]', email);
    await np.fill('input[name="password"]', password);
    await Promise.all([np.waitForURL(BASE + "/account/password"), np.click('button[type="submit"]')]);
    await np.getByTestId("must-change-password").waitFor();
    await np.goto("/contacts");
    assert.equal(new URL(np.url()).pathname, "/account/password");
    const pf = np.getByTestId("password-form");
    await pf.locator('input[name="currentPassword"]').fill(password);
    await pf.locator('input[name="newPassword"]').fill("nova-own-password-1");
    await pf.locator('input[name="confirmPassword"]').fill("nova-own-password-1");
    await Promise.all([np.waitForURL(BASE + "/"), pf.getByRole("button", { name: "Change Password" }).click()]);
    await np.goto("/contacts");
    assert.equal(new URL(np.url()).pathname, "/contacts");

    // Deactivate: the new user's live session ends at once.
    await page.goto("/user-analytics?tab=overview");
    const row = page.getByTestId("user-row").filter({ hasText: email });
    await Promise.all([
      page.waitForURL(/\/user-analytics\/users\/\d+/),
      row.getByRole("link", { name: /Manage/ }).click(),
    ]);
    await Promise.all([
      page.waitForURL(/\/user-analytics\?tab=overview$/),
      page.getByRole("button", { name: "Deactivate" }).click(),
    ]);
    await page.getByTestId("user-row").filter({ hasText: email }).getByText("Inactive").waitFor();
    await np.goto("/contacts");
    assert.equal(new URL(np.url()).pathname, "/login");
    await fresh.close();
    await context.close();
  });

  it("a standard user is refused User Analytics by the server", async () => {
    const { context, page } = await signedInPage(browser(), mode, E2E_USERS.user);
    const res = await page.goto("/user-analytics");
    assert.equal(res.status(), 403);
    await page.getByTestId("access-restricted").getByText("Access restricted").waitFor();
    const api = await page.request.get("/api/analytics/users");
    assert.equal(api.status(), 403);
    await context.close();
  });

  it("the analytics chart renders as SVG with its figures", async () => {
    const { context, page } = await signedInPage(browser(), mode, E2E_USERS.user);
    await page.goto("/analytics?range=7");
    const chart = page.getByTestId("messages-chart");
    await chart.locator("svg title").getByText("Messages per day").waitFor({ state: "attached" });
    assert.equal(await chart.locator("polyline").count(), 4);
    assert.equal(await chart.locator("[data-testid=chart-table] tbody tr").count(), 7);
    await Promise.all([page.waitForURL(/range=30/), page.getByRole("link", { name: "30 days" }).click()]);
    await page.locator("[data-testid=chart-table] tbody tr").nth(29).waitFor({ state: "attached" });
    await page.getByTestId("system-health").getByText("Reachable").waitFor();
    await context.close();
  });
});
