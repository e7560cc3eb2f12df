// Issue 23: TOTP two-factor end to end — enrol from the Account screen, then sign in with the password and a code
// (and with a recovery code), with JavaScript on and off.
import assert from "node:assert/strict";
import { createHmac } from "node:crypto";
import { it } from "node:test";
import { BASE, describeEachMode, sharedBrowser, signedInPage } from "./browser.mjs";
import { atUrl, until } from "./lib.mjs";
import { E2E_USERS } from "./server.mjs";

const browser = sharedBrowser();

// An authenticator app in a few lines (RFC 6238, SHA-1, 6 digits, 30 s), independent of the app's own code.
function base32(text) {
  const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";
  let bits = "";
  for (const c of text.replace(/\s/g, "")) bits += alphabet.indexOf(c).toString(2).padStart(5, "0");
  return Buffer.from(bits.match(/.{8}/g).map((b) => parseInt(b, 2)));
}
function totp(secret, offset = 0) {
  const counter = Buffer.alloc(8);
  counter.writeBigUInt64BE(BigInt(Math.floor(Date.now() / 30_000) + offset));
  const mac = createHmac("sha1", base32(secret)).update(counter).digest();
  const o = mac[19] & 15;
  return String((mac.readUInt32BE(o) & 0x7fffffff) % 1_000_000).padStart(6, "0");
}

async function signInSteps(page, user, code) {
  await page.goto("/login");
  await page.fill('input[name="email"]', user.email);
  await page.fill('input[name="password"]', user.password);
  await page.click('button[type="submit"]');
  await page.getByTestId("two-factor-form").waitFor();
  await page.fill('input[name="code"]', code);
  await page.getByRole("button", { name: "Verify" }).click();
}

describeEachMode("two-factor authentication", (mode) => {
  const user = mode.javaScriptEnabled ? E2E_USERS.twoFactorJsOn : E2E_USERS.twoFactorJsOff;

  it("enrols from the Account screen, then signs in with the password and a code, and with a recovery code", async () => {
    const { context, page } = await signedInPage(browser(), mode, user);
    await page.goto("/account");
    await page.getByTestId("two-factor-status").getByText("Off").waitFor();
    await page.getByRole("link", { name: "Set up" }).click();
    await atUrl(page, BASE + "/account/two-factor");
    await page.getByRole("button", { name: "Set up two-factor" }).click();
    const secret = (await page.getByTestId("totp-secret").textContent()).replace(/\s/g, "");
    assert.match(secret, /^[A-Z2-7]{32}$/);
    assert.match(
      await page.getByTestId("totp-uri").getAttribute("href"),
      /^otpauth:\/\/totp\/Helio:tfa-o(n|ff)%40e2e\.test\?secret=/,
    );

    // A wrong code is refused, the right one turns it on and shows the recovery codes once.
    await page.fill('input[name="code"]', "000000");
    await page.getByRole("button", { name: "Turn on" }).click();
    await page.getByText("That code does not match").waitFor();
    await page.fill('input[name="code"]', totp(secret));
    await page.getByRole("button", { name: "Turn on" }).click();
    await page.getByTestId("two-factor-on").waitFor();
    const recovery = await page.getByTestId("recovery-codes").locator("li").allTextContents();
    assert.equal(recovery.length, 10);

    await Promise.all([atUrl(page, BASE + "/login"), page.getByRole("button", { name: "Logout" }).click()]);

    // Password, then the code step (a signed pending cookie, not a session): a wrong code first, then the next one.
    await signInSteps(page, user, "123456");
    await page.getByText("Invalid authentication code").first().waitFor();
    assert.equal(new URL(page.url()).pathname, "/login");
    await page.fill('input[name="code"]', totp(secret, 1)); // the step after the one enrolment spent (±1 window)
    await Promise.all([atUrl(page, BASE + "/"), page.getByRole("button", { name: "Verify" }).click()]);
    await page.getByTestId("toast").getByText("Login successful").waitFor();
    await page.goto("/account");
    await page.getByTestId("two-factor-status").getByText("On").waitFor();
    await page.getByTestId("session-current").waitFor();

    // A recovery code works once.
    await Promise.all([atUrl(page, BASE + "/login"), page.getByRole("button", { name: "Logout" }).click()]);
    await signInSteps(page, user, recovery[0]);
    await until(() => new URL(page.url()).pathname === "/", "signed in with a recovery code");
    await Promise.all([atUrl(page, BASE + "/login"), page.getByRole("button", { name: "Logout" }).click()]);
    await signInSteps(page, user, recovery[0]);
    await page.getByText("Invalid authentication code").first().waitFor();
    await context.close();
  });
});
