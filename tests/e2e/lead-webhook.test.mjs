import assert from "node:assert/strict";
import { it } from "node:test";
import { BASE, describeEachMode, PHONE_WINDOW, sharedBrowser, signedInPage } from "./browser.mjs";
import { assertFitsWidth, randomPhone, tag } from "./lib.mjs";
import { E2E_USERS } from "./server.mjs";
import { postLeads, vendorLead } from "../fakes/fake-lead-vendor.mjs";

// Issue 26 items 1 and 2 (decision 035): a rep creates an API key on Settings → API keys (390 px phone, JS on and
// off), a fake lead vendor posts a lead with it, and the contact page shows the lead's source and consent evidence.
const browser = sharedBrowser();

describeEachMode("lead webhook", (mode) => {
  it("creates a key on the screen, a vendor posts a lead with it, the contact shows its consent evidence", async () => {
    const { context, page } = await signedInPage(browser(), mode, E2E_USERS.user, PHONE_WINDOW);
    const name = tag("Vendor key");
    await page.goto("/account/api-keys");
    await page.getByRole("heading", { name: "API keys" }).first().waitFor();
    const form = page.getByTestId("api-key-form");
    await form.getByLabel("Name").fill(name);
    await form.getByRole("button", { name: "Create key" }).click();
    const secret = (await page.getByTestId("api-key-secret-value").textContent())?.trim() ?? "";
    assert.match(secret, /^helio_[A-Za-z0-9_-]{43}$/);
    await assertFitsWidth(page, 390, "API keys with a new key");
    // The list shows the prefix only, never the secret.
    const row = page.getByTestId("api-key").filter({ hasText: name });
    await row.getByText(secret.slice(0, 12) + "…").waitFor();
    assert.equal(await page.getByTestId("api-keys").getByText(secret).count(), 0);

    const phone = randomPhone();
    const consent = `I agree that Acme Solar may text me. <script>alert(1)</script> ${tag()}`;
    const posted = await postLeads(
      BASE,
      secret,
      vendorLead({ phone, email: `${tag("m")}@example.com`, tcpa_consent_text: consent }),
      {
        idempotencyKey: tag("idem"),
      },
    );
    assert.equal(posted.status, 201, JSON.stringify(posted.json));
    const contactId = posted.json.leads[0].contactId;
    assert.ok(contactId > 0);

    await page.goto(`/contacts/${contactId}`);
    await page.getByTestId("lead-source").getByText("EnergySage").waitFor();
    const evidence = page.getByTestId("lead-consent").first();
    // The vendor's markup is shown as text, never run or rendered.
    await evidence.getByText(consent).waitFor();
    await evidence.getByText("Seller named: Acme Solar").waitFor();
    await evidence.getByText("IP: 203.0.113.24").waitFor();
    await evidence.getByText("Page: https://www.energysage.example/quotes/acme").waitFor();

    // Revoked, the key no longer posts.
    await page.goto("/account/api-keys");
    await page
      .getByTestId("api-key")
      .filter({ hasText: name })
      .getByRole("button", { name: `Revoke ${name}` })
      .click();
    await page.getByTestId("api-key").filter({ hasText: name }).getByText("Revoked").waitFor();
    const refused = await postLeads(BASE, secret, vendorLead({ phone: randomPhone() }));
    assert.equal(refused.status, 401);
    await context.close();
  });
});
