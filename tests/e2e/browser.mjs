// playwright-core driving Debian's Chromium (never a downloaded browser).
import { after, before, describe } from "node:test";
import { chromium } from "playwright-core";
import { startFakeWebhookReceiver } from "../fakes/fake-webhook-receiver.mjs";

export const BASE = process.env.E2E_BASE_URL ?? "http://127.0.0.1:8799";
/** The context options of a phone-sized window (docs/ui.md: every screen fits a 390 px phone). */
export const PHONE_WINDOW = { viewport: { width: 390, height: 800 } };

export const JS_MODES = [
  { name: "JS on", javaScriptEnabled: true },
  { name: "JS off", javaScriptEnabled: false },
];

export async function launch() {
  return chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
    headless: true,
    args: [
      "--no-sandbox",
      "--disable-gpu",
      "--disable-quic",
      "--no-first-run",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
      "--disable-dev-shm-usage",
    ],
  });
}

/** A signed-in page in a fresh context with JavaScript on or off. */
export async function signedInPage(browser, mode, user, contextOptions = {}) {
  const base = contextOptions.baseURL ?? BASE;
  const context = await browser.newContext({
    javaScriptEnabled: mode.javaScriptEnabled,
    baseURL: base,
    ...contextOptions,
  });
  const page = await context.newPage();
  // A script error in the page is the first thing to read when a JS-on step times out.
  page.on("pageerror", (e) => console.log(`[page error] ${page.url()}: ${e.message}`));
  await page.goto("/login");
  await page.fill('input[name="email"]', user.email);
  await page.fill('input[name="password"]', user.password);
  await Promise.all([page.waitForURL(base + "/"), page.click('button[type="submit"]')]);
  return { context, page };
}

/** One browser for the whole test file: launched before its first test, closed after its last; call the result to get it. */
export function sharedBrowser() {
  let browser;
  before(async () => (browser = await launch()));
  after(async () => browser?.close());
  return () => browser;
}

/**
 * A loopback fake webhook receiver for the whole test file (tests/fakes/fake-webhook-receiver.mjs): started before
 * its first test, stopped after its last; call the result to get it.
 */
export function sharedWebhookReceiver() {
  let receiver;
  before(async () => (receiver = await startFakeWebhookReceiver()));
  after(async () => receiver?.stop());
  return () => receiver;
}

/** The suite twice, `describe("<title> (JS on)")` and `(JS off)`, each run given its mode. */
export function describeEachMode(title, body) {
  for (const mode of JS_MODES) describe(`${title} (${mode.name})`, () => body(mode));
}
