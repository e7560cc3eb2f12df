// The compliance report in a real browser, JS on and off (issue 14): a contact texts STOP, the report counts the
// opt-out by its source, the consent evidence downloads as CSV with the text that did it, and the contact's TCPA
// packet shows and downloads both.
import assert from "node:assert/strict";
import { readFile } from "node:fs/promises";
import { it } from "node:test";
import { BASE, describeEachMode, sharedBrowser, signedInPage } from "./browser.mjs";
import { atUrl, randomPhone, tag, toast, until, simulateReply } from "./lib.mjs";
import { E2E_USERS } from "./server.mjs";

const browser = sharedBrowser();

describeEachMode("Compliance report", (mode) => {
  it("counts a STOP by its source and downloads the consent evidence with the text", async () => {
    const { context, page } = await signedInPage(browser(), mode, E2E_USERS.admin);
    const phone = randomPhone();
    const last = tag("Cmp");
    const res = await context.request.post(BASE + "/api/contacts", {
      data: { firstName: "Opal", lastName: last, phone },
      headers: { Origin: BASE },
    });
    assert.equal(res.status(), 201);
    const contact = await res.json();

    // The contact texts STOP (the local outbox's simulated inbound: the Twilio webhook's path).
    await simulateReply(page, phone, "STOP");

    await page.goto("/analytics");
    await page.getByRole("link", { name: "Compliance report" }).click();
    await atUrl(page, `${BASE}/compliance`);
    // The inbound is handled by the task queue: reload until the report has it.
    const optOuts = async () =>
      Number(
        /Opt-outs\s*([\d,]+)/.exec(await page.getByTestId("compliance-totals").innerText())?.[1]?.replace(/,/g, "") ??
          0,
      );
    await until(async () => (await optOuts()) >= 1 || (await page.reload(), false), "the opt-out counted", 20_000);
    await page.getByTestId("compliance-reasons").getByText("Opt-out").first().waitFor();
    // The state texting rules the quiet-hours check holds, each with its statute (issue 29).
    const texas = page.getByTestId("state-rules").getByRole("row").filter({ hasText: "Texas (TX)" });
    await texas.getByText("Mon–Fri 09:00–21:00 · Sat 09:00–21:00 · Sun 12:00–21:00").waitFor();
    await texas.getByText("Tex. Bus. & Com. Code §301.051").waitFor();

    await page.goto(`/contacts/${contact.id}`);
    const [download] = await Promise.all([
      page.waitForEvent("download"),
      page.getByRole("link", { name: "Consent evidence" }).click(),
    ]);
    assert.match(
      download.suggestedFilename(),
      new RegExp(`^consent-evidence-contact-${contact.id}-\\d{4}-\\d{2}-\\d{2}\\.csv$`),
    );
    const csv = await readFile(await download.path(), "utf8");
    const lines = csv.trim().split("\r\n");
    assert.equal(lines.length, 2, csv);
    assert.match(lines[1], /"opt-out","sms"/);
    assert.match(lines[1], new RegExp(`"${last}"`));
    assert.match(lines[1], /"STOP"/);

    // The TCPA packet (issue 29): the STOP, the opt-out it caused, on a printable page and as CSV.
    await page.getByRole("link", { name: "TCPA packet" }).click();
    await atUrl(page, `${BASE}/contacts/${contact.id}/tcpa-packet`);
    await page.getByRole("heading", { name: `TCPA packet: Opal ${last}` }).waitFor();
    const entries = page.getByTestId("packet-entry");
    await entries.filter({ hasText: "Opted out" }).first().waitFor();
    await entries.filter({ hasText: "STOP" }).first().waitFor();
    const [packet] = await Promise.all([
      page.waitForEvent("download"),
      page.getByRole("link", { name: "CSV" }).click(),
    ]);
    assert.match(
      packet.suggestedFilename(),
      new RegExp(`^tcpa-packet-contact-${contact.id}-\\d{4}-\\d{2}-\\d{2}\\.csv$`),
    );
    const rows = (await readFile(await packet.path(), "utf8")).trim().split("\r\n");
    assert.match(rows[0], /^"at_utc","at_contact_local","record"/);
    assert.ok(
      rows.some((r) => /"consent","Opted out"/.test(r)),
      rows.join("\n"),
    );
    assert.ok(
      rows.some((r) => /"message","Received/.test(r) && /"STOP"/.test(r)),
      rows.join("\n"),
    );
    await context.close();
  });

  it("drafts the 10DLC registration and keeps the superuser's own opt-in description", async () => {
    const { context, page } = await signedInPage(browser(), mode, E2E_USERS.admin);
    await page.goto("/compliance");
    await page.getByRole("link", { name: "10DLC registration" }).click();
    await atUrl(page, `${BASE}/compliance/10dlc`);
    await page.getByRole("heading", { name: "10DLC registration" }).waitFor();
    await page.getByTestId("tendlc-description").getByText("texts homeowners who asked for a solar quote").waitFor();
    // The e2e server sends through the local outbox: no registration to check, said plainly.
    await page.getByText("Texts go to the local outbox: no carrier registration applies.").waitFor();

    const flow = `Homeowners opt in with the unchecked box on our quote form (${tag("f")}); msg frequency varies, Msg & data rates may apply, reply STOP to opt out.`;
    const form = page.getByTestId("tendlc-flow-form");
    await form.getByLabel("Your own opt-in description").fill(flow);
    await form.getByRole("button", { name: "Save opt-in description" }).click();
    await page.getByTestId("tendlc-flow").getByText(flow).waitFor();
    assert.equal(await form.getByLabel("Your own opt-in description").inputValue(), flow);
    // Emptied, the draft comes back.
    await form.getByLabel("Your own opt-in description").fill("");
    await form.getByRole("button", { name: "Save opt-in description" }).click();
    await page.getByTestId("tendlc-flow").getByText("opt in by checking an unchecked box").waitFor();
    await context.close();
  });

  it("a STOP to the marketing number ends marketing only while an informational number carries appointment texts (issue 29 item 2)", async () => {
    const { context, page } = await signedInPage(browser(), mode, E2E_USERS.admin);
    await page.goto("/compliance#stop-scope");
    const card = page.getByTestId("stop-scope");
    await card.getByLabel("Informational number").fill("not a number");
    await card.getByRole("button", { name: "Save opt-out settings" }).click();
    await card
      .getByText(/E\.164|phone number/i)
      .first()
      .waitFor();
    await card.getByLabel("A STOP applies to").selectOption("purpose");
    await card.getByLabel("Informational number").fill("(602) 555-9001");
    await card.getByRole("button", { name: "Save opt-out settings" }).click();
    await toast(page, "Opt-out settings saved").waitFor();
    await card.getByText(/appointment texts go on from \+16025559001/).waitFor();

    const phone = randomPhone();
    const res = await context.request.post(BASE + "/api/contacts", {
      data: { firstName: "Pia", lastName: tag("Scope"), phone },
      headers: { Origin: BASE },
    });
    assert.equal(res.status(), 201);
    const contact = await res.json();
    await simulateReply(page, phone, "STOP");
    await page.goto(`/contacts/${contact.id}`);
    await page.getByTestId("consent").getByText("marketing only; appointment texts still go").waitFor();
    const api = await (await context.request.get(`${BASE}/api/contacts/${contact.id}`)).json();
    assert.equal(api.optedOutScope, "marketing");

    // Back to the default for the other tests on this server.
    await page.goto("/compliance#stop-scope");
    await card.getByLabel("A STOP applies to").selectOption("fcc");
    await card.getByLabel("Informational number").fill("");
    await card.getByRole("button", { name: "Save opt-out settings" }).click();
    await toast(page, "Opt-out settings saved").waitFor();
    await card.getByText(/every STOP ends every text/).waitFor();
    await context.close();
  });

  it("sets when the autopilot pauses a sending number, the error beside the field", async () => {
    const { context, page } = await signedInPage(browser(), mode, E2E_USERS.admin);
    await page.goto("/compliance#sending-numbers");
    const form = page.getByTestId("autopilot-threshold");
    await form.getByLabel("…and at least this % of its texts").fill("lots");
    await form.getByRole("button", { name: "Save thresholds" }).click();
    await form.getByText("Share of the day's texts: a percentage from 0 to 100").waitFor();
    await form.getByLabel("Pause after filtered texts a day").fill("25");
    await form.getByLabel("…and at least this % of its texts").fill("1.5");
    await form.getByRole("button", { name: "Save thresholds" }).click();
    await toast(page, "Autopilot thresholds saved").waitFor();
    await page
      .getByTestId("sending-numbers")
      .getByText(/When carriers filter 25 or more of a number's texts in a day \(UTC\), and at least 1\.5%/)
      .waitFor();
    // Back to the defaults for the other tests on this server.
    await form.getByLabel("Pause after filtered texts a day").fill("10");
    await form.getByLabel("…and at least this % of its texts").fill("2");
    await form.getByRole("button", { name: "Save thresholds" }).click();
    await toast(page, "Autopilot thresholds saved").waitFor();
    await context.close();
  });
});
