// Issue 24 (2, 3): every screen and dialog fits a 390 px phone, and every dialog can be scrolled to its title, on a
// phone and at 1280×800, with JS on and off. The data is long on purpose (names, emails, a five-step campaign).
import assert from "node:assert/strict";
import { it } from "node:test";
import { BASE, describeEachMode, sharedBrowser, signedInPage } from "./browser.mjs";
import { randomPhone, tag, until } from "./lib.mjs";
import { E2E_USERS } from "./server.mjs";

const browser = sharedBrowser();
const PHONE = { width: 390, height: 800 };
const DESKTOP = { width: 1280, height: 800 };

/** What the layout tests open: seeded once (the first test to ask) through the API as the superuser. */
let seeded;
let seeding;
const seed = () => (seeding ??= seedOnce());
async function seedOnce() {
  const { context } = await signedInPage(browser(), { javaScriptEnabled: true }, E2E_USERS.admin);
  const api = async (method, path, data) => {
    const res = await context.request.fetch(path, { method, data, headers: { Origin: BASE } });
    const body = await res.json().catch(() => null);
    assert.ok(res.ok(), `${method} ${path}: ${res.status()} ${JSON.stringify(body)}`);
    return body;
  };
  const t = tag();
  const contacts = [];
  for (let i = 0; i < 3; i++) {
    const c = await api("POST", "/api/contacts", {
      firstName: `Maximiliana${t}`,
      lastName: "Featherstonehaugh-Montgomery",
      phone: randomPhone(),
      email: `maximiliana.featherstonehaugh-montgomery.${t}${i}@a-very-long-solar-installer-domain.example.com`,
      company: "Sunshine Photovoltaic Installations and Battery Storage Incorporated",
      city: "San Francisco",
      state: "CA",
    });
    contacts.push(c.id ?? c.contact?.id);
  }
  const campaign = await api("POST", "/api/campaigns", {
    name: `Summer Savings Five-Touch Reactivation Sequence ${t}`,
    description: "A long description ".repeat(8),
  });
  for (let i = 1; i <= 5; i++) {
    await api("POST", "/api/campaign-steps", {
      campaignId: campaign.id,
      name: `Touch ${i}: follow up on the free solar assessment`,
      messageType: i % 2 ? "sms" : "email",
      subject: i % 2 ? undefined : `Your solar estimate, {{firstName}} — step ${i}`,
      content: `Hi {{firstName}}, this is Sam again about your roof at {{address|your home}}. `.repeat(6),
      delayDays: i,
      delayHours: 0,
    });
  }
  await api("POST", "/api/messages/send-individual", {
    contactId: contacts[0],
    type: "sms",
    message: `Hi Maximiliana, https://example.com/${"a".repeat(80)} is your estimate`,
  });
  seeded = { contact: contacts[0], campaign: campaign.id };
  await context.close();
}

const screens = () => [
  "/",
  "/campaigns",
  "/messages",
  "/messages/conversations",
  "/messages/archives",
  "/contacts",
  `/contacts/${seeded.contact}`,
  "/testing",
  "/idea-generator",
  "/auto-responder",
  "/smart-alerts",
  "/test-smart-alerts",
  "/analytics",
  "/user-analytics",
  "/knowledge-base",
  "/organisation",
  "/lead-triggers",
  "/settings/webhooks",
  "/account",
  "/account/password",
  "/account/api-keys",
  "/alerts",
  "/compliance",
  "/compliance/10dlc",
];
const dialogs = () => [
  "/contacts/new",
  `/contacts/${seeded.contact}/edit`,
  `/contacts/${seeded.contact}/delete`,
  "/contacts/upload",
  "/contacts/quick-send",
  "/campaigns/new",
  `/campaigns/${seeded.campaign}/edit`,
  `/campaigns/${seeded.campaign}/steps`,
  `/campaigns/${seeded.campaign}/contacts`,
  "/auto-responder/new",
  "/user-analytics/new",
];

/** The page's width, what sticks out past the viewport, and where the dialog's title is once scrolled to the top. */
function measure(page, viewportWidth) {
  return page.evaluate((w) => {
    const out = [];
    for (const el of document.querySelectorAll("body *")) {
      const r = el.getBoundingClientRect();
      if (r.right > w + 1 && ![...el.children].some((k) => k.getBoundingClientRect().right > w + 1))
        out.push(`${el.tagName.toLowerCase()}.${String(el.className).slice(0, 50)}`);
    }
    const dialog = document.querySelector('[role="dialog"]');
    let dialog_ = null;
    if (dialog) {
      dialog.parentElement.scrollTop = 0; // the overlay scrolls; its top is where a reader starts
      const title = document.getElementById(dialog.getAttribute("aria-labelledby"));
      const box = dialog.getBoundingClientRect();
      dialog_ = {
        titleTop: Math.round(title.getBoundingClientRect().top),
        left: Math.round(box.left),
        right: Math.round(box.right),
      };
    }
    return { scrollWidth: document.documentElement.scrollWidth, sticking: out.slice(0, 3), dialog: dialog_ };
  }, viewportWidth);
}

async function check(page, path, viewport, { dialog }) {
  await page.goto(path);
  if (dialog) await page.getByRole("dialog").first().waitFor();
  const m = await measure(page, viewport.width);
  assert.ok(
    m.scrollWidth <= viewport.width,
    `${path} at ${viewport.width} px is ${m.scrollWidth} px wide: ${m.sticking.join(", ")}`,
  );
  if (dialog) {
    assert.ok(m.dialog, `${path}: no dialog`);
    assert.ok(
      m.dialog.titleTop >= 0,
      `${path} at ${viewport.width}×${viewport.height}: the dialog's title is ${-m.dialog.titleTop} px above the top when scrolled up`,
    );
    assert.ok(
      m.dialog.left >= 0 && m.dialog.right <= viewport.width,
      `${path}: the dialog spans ${m.dialog.left}–${m.dialog.right} px`,
    );
  }
}

describeEachMode("layout", (mode) => {
  it("fits every screen and dialog in a 390 px phone, each dialog's title within reach", async () => {
    await seed();
    const { context, page } = await signedInPage(browser(), mode, E2E_USERS.admin, { viewport: PHONE });
    for (const path of screens()) await check(page, path, PHONE, { dialog: false });
    for (const path of dialogs()) await check(page, path, PHONE, { dialog: true });
    await context.close();
  });

  it("keeps a five-step campaign's steps dialog scrollable to its title at 1280×800", async () => {
    await seed();
    const { context, page } = await signedInPage(browser(), mode, E2E_USERS.admin, { viewport: DESKTOP });
    for (const path of dialogs()) await check(page, path, DESKTOP, { dialog: true });
    for (const path of screens()) await check(page, path, DESKTOP, { dialog: false });
    // The first step's actions are reachable: scrolled into view, they sit inside the viewport.
    await page.goto(`/campaigns/${seeded.campaign}/steps`);
    const first = page.getByRole("dialog").getByText("Touch 1: follow up on the free solar assessment").first();
    await first.scrollIntoViewIfNeeded();
    const box = await first.boundingBox();
    assert.ok(box && box.y >= 0 && box.y < DESKTOP.height, `step 1 at y=${box?.y}`);
    await context.close();
  });

  it("shows the Match columns step and the CSV preview's counts on a phone", async () => {
    const { context, page } = await signedInPage(browser(), mode, E2E_USERS.user, { viewport: PHONE });
    const rows = Array.from(
      { length: 40 },
      (_, i) =>
        `Lee${i},Longsurname-${tag()},${randomPhone()},lee${i}.${tag()}@an-extremely-long-example-domain.example.com`,
    );
    await page.goto("/contacts/upload");
    const dialog = page.getByRole("dialog", { name: "Upload CSV" });
    await dialog.locator('input[type="file"]').setInputFiles({
      name: "leads.csv",
      mimeType: "text/csv",
      buffer: Buffer.from(["firstName,lastName,phone,email", ...rows].join("\n")),
    });
    await dialog.getByRole("button", { name: "Upload and preview" }).click();
    // The Match columns step first (issue 24): it fits too, and can be scrolled to its title.
    const match = page.getByRole("dialog", { name: "Match columns" });
    await match.waitFor();
    const mm = await measure(page, PHONE.width);
    assert.ok(mm.scrollWidth <= PHONE.width, `match columns is ${mm.scrollWidth} px wide: ${mm.sticking.join(", ")}`);
    assert.ok(mm.dialog.titleTop >= 0, `match columns title ${mm.dialog.titleTop}`);
    // The column table itself fits: no sideways scrolling inside its wrapper either.
    const [inner, outer] = await match
      .getByTestId("column-match")
      .evaluate((t) => [t.parentElement.scrollWidth, t.parentElement.clientWidth]);
    assert.ok(inner <= outer, `the column table is ${inner} px wide in ${outer} px`);
    await match.getByRole("button", { name: "Continue to preview" }).click();
    const preview = page.getByRole("dialog", { name: "Preview import" });
    await preview.waitFor();
    const m = await measure(page, PHONE.width);
    assert.ok(m.scrollWidth <= PHONE.width, `preview is ${m.scrollWidth} px wide: ${m.sticking.join(", ")}`);
    assert.ok(m.dialog.titleTop >= 0, `preview title ${m.dialog.titleTop}`);
    await preview.getByRole("button", { name: "Import 40 contacts" }).waitFor();
    await context.close();
  });
});

describeEachMode("navigation", (mode) => {
  it("reaches the contact page from the list, and every screen from the sidebar", async () => {
    await seed();
    const { context, page } = await signedInPage(browser(), mode, E2E_USERS.admin);
    await page.goto(`/contacts?q=Maximiliana`);
    await page.getByTestId("contact-row").first().locator("td:first-child a").click();
    await until(() => /\/contacts\/\d+$/.test(new URL(page.url()).pathname), "the contact page");
    const sidebar = page.locator("#sidebar nav");
    for (const [label, path] of [
      ["Conversations", "/messages/conversations"],
      ["Alerts", "/alerts"],
      ["Compliance", "/compliance"],
      ["Organisation", "/organisation"],
      ["Account", "/account"],
    ]) {
      assert.equal(await sidebar.getByRole("link", { name: label, exact: true }).getAttribute("href"), path);
    }
    await sidebar.getByRole("link", { name: "Conversations", exact: true }).click();
    await until(() => new URL(page.url()).pathname === "/messages/conversations", "conversations");
    // With JS the address bar changes a moment before the sidebar re-renders: wait for the mark.
    await until(
      async () =>
        (await sidebar.getByRole("link", { name: "Conversations", exact: true }).getAttribute("aria-current")) ===
        "page",
      "Conversations marked current",
    );
    assert.equal(await sidebar.getByRole("link", { name: "Messages", exact: true }).getAttribute("aria-current"), null);
    await context.close();

    // A rep sees the team screens but not the organisation-wide ones.
    const rep = await signedInPage(browser(), mode, E2E_USERS.user);
    const repNav = rep.page.locator("#sidebar nav");
    await repNav.getByRole("link", { name: "Alerts", exact: true }).waitFor();
    assert.equal(await repNav.getByRole("link", { name: "Organisation", exact: true }).count(), 0);
    assert.equal(await repNav.getByRole("link", { name: "Compliance", exact: true }).count(), 0);
    await rep.context.close();
  });
});
