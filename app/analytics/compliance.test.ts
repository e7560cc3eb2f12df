// The compliance report and the consent evidence export (issue 14): events recorded by triggers on every path,
// counted per day and reason, exported with the text that caused them, spreadsheet-safe.
import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { createOutboundMessages } from "~/messaging/create-outbound-messages.server";
import { receiveInboundSms } from "~/messaging/receive-inbound.server";
import { runBatch } from "~/db/client.server";
import { suppressStatements } from "~/messaging/compliance.server";
import { createTestContact, uniquePhone } from "../../tests/contact-factory";
import { call, createTestUser, db, loginAs } from "../../tests/factories";
import { appHooks } from "../../tests/messaging-harness";
import { exportConsentEvidence } from "./export-consent-evidence.server";
import { getComplianceReport } from "./get-compliance-report.server";
import { quietHoursNote } from "~/messaging/quiet-hours";

const queue = { send: async () => {}, sendBatch: async () => {} } as any;
const sid = () => `SM${crypto.randomUUID().replace(/-/g, "")}`;
// A day of its own, so the counts of other test files (sharing the D1) never mix in.
const DAY = "2031-03-14";
const AT = new Date(`${DAY}T15:00:00Z`);
const text = async (stream: ReadableStream<Uint8Array>) => new Response(stream).text();

describe("compliance events and report", () => {
  it("records STOP and START from a contact, a bare number's opt-out, refused and held sends; counts them by day and reason", async () => {
    const u = await createTestUser();
    const contact = await createTestContact(u.id, { firstName: '=HYPERLINK("http://x")', lastName: "Lee" });
    await receiveInboundSms(db(), queue, { sid: sid(), from: contact.phone, to: "+15550001111", body: "STOP" }, AT);
    await receiveInboundSms(
      db(),
      queue,
      { sid: sid(), from: contact.phone, to: "+15550001111", body: "START" },
      new Date(AT.getTime() + 60_000),
    );
    const bare = uniquePhone();
    await runBatch(
      db(),
      suppressStatements(db(), { channel: "sms", address: bare, reason: "Carrier reported unsubscribed (21610)" }, AT),
    );

    const [refusedId, heldId] = await createOutboundMessages(
      db(),
      queue,
      [
        {
          channel: "sms",
          kind: "individual",
          phone: uniquePhone(),
          contactId: null,
          content: "a",
          idempotencyKey: `cmp:${crypto.randomUUID()}`,
          createdBy: u.id,
        },
        {
          channel: "sms",
          kind: "individual",
          phone: uniquePhone(),
          contactId: null,
          content: "b",
          idempotencyKey: `cmp:${crypto.randomUUID()}`,
          createdBy: u.id,
        },
      ],
      AT,
      appHooks,
    );
    const t = AT.getTime();
    await db().run(
      sql`UPDATE messages SET status = 'skipped', error_message = 'Recipient opted out', updated_at = ${t} WHERE id = ${refusedId}`,
    );
    await db().run(sql`UPDATE messages SET status = 'queued', updated_at = ${t} WHERE id = ${heldId}`);
    await db().run(
      sql`UPDATE messages SET status = 'pending', error_message = ${quietHoursNote("TX")}, updated_at = ${t} WHERE id = ${heldId}`,
    );

    const r = await getComplianceReport(db(), { from: DAY, to: DAY });
    expect(r.totals).toEqual({ opt_out: 2, opt_in: 1, refused: 1, quiet_hours: 1, held: 0 });
    expect(r.days).toEqual([{ day: DAY, optOut: 2, optIn: 1, refused: 1, quietHours: 1, held: 0 }]);
    expect(r.reasons).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          kind: "opt_out",
          channel: "sms",
          why: "Carrier reported unsubscribed (21610)",
          count: 1,
        }),
        expect.objectContaining({ kind: "refused", why: "Recipient opted out", count: 1 }),
        // Which rule held it (decision 060, migration 0068: the trigger counts every rule's note).
        expect.objectContaining({
          kind: "quiet_hours",
          why: "Deferred: outside allowed sending hours in the recipient's time zone (Texas: Tex. Bus. & Com. Code §301.051)",
          count: 1,
        }),
        expect.objectContaining({ kind: "opt_in", why: "resubscribed", count: 1 }),
      ]),
    );
    // Another range sees none of it.
    expect((await getComplianceReport(db(), { from: "2031-03-15", to: "2031-03-20" })).totals).toEqual({
      opt_out: 0,
      opt_in: 0,
      refused: 0,
      quiet_hours: 0,
      held: 0,
    });

    // One contact's evidence: the opt-out with the STOP text that did it, then the opt-in; cells spreadsheet-safe.
    const csv = await text(exportConsentEvidence(db(), { contactId: contact.id }));
    const lines = csv.trim().split("\r\n");
    expect(lines[0]).toMatch(/^"event_id","at_utc","event","channel","source"/);
    expect(lines).toHaveLength(3);
    expect(lines[1]).toContain('"opt-out","sms"');
    expect(lines[1]).toContain('"STOP"');
    expect(lines[1]).toContain(`"'=HYPERLINK(""http://x"")"`);
    expect(lines[2]).toContain('"opt-in","sms","resubscribed"');
    expect(lines[2]).toContain('"START"');
    // All contacts: the bare number is there too.
    expect(await text(exportConsentEvidence(db(), {}))).toContain(bare.slice(1));
  });

  it("serves the report and the evidence over HTTP to a superuser", async () => {
    const u = await createTestUser({ role: "superuser" });
    const cookie = await loginAs(u);
    const page = await call(`/compliance?from=${DAY}&to=${DAY}`, { cookie });
    expect(page.status).toBe(200);
    expect(await page.text()).toContain("Compliance report");
    const file = await call("/compliance/evidence.csv", { cookie });
    expect(file.status).toBe(200);
    expect(file.headers.get("Content-Type")).toMatch(/^text\/csv/);
    expect(file.headers.get("Content-Disposition")).toMatch(
      /attachment; filename="consent-evidence-\d{4}-\d{2}-\d{2}\.csv"/,
    );
    expect((await file.text()).split("\r\n")[0]).toContain('"event_id"');
  });

  // Issue 23 (decision 023): organisation-wide reporting is superuser work (SPEC §6); a rep still gets the evidence
  // of a contact they can open (every contact: they are shared), from that contact's page.
  it("a standard user gets neither the report nor the all-contacts file, but does get one contact's evidence", async () => {
    const u = await createTestUser();
    const cookie = await loginAs(u);
    expect((await call(`/compliance?from=${DAY}&to=${DAY}`, { cookie })).status).toBe(403);
    const all = await call("/compliance/evidence.csv", { cookie });
    expect(all.status).toBe(403);
    expect(await all.text()).toContain("for superusers");
    const contact = await createTestContact(u.id);
    const one = await call(`/compliance/evidence.csv?contact=${contact.id}`, { cookie });
    expect(one.status).toBe(200);
    expect(one.headers.get("Content-Disposition")).toContain(`consent-evidence-contact-${contact.id}-`);
    expect((await one.text()).split("\r\n")[0]).toContain('"event_id"');
    expect((await call("/compliance/evidence.csv?contact=999999999", { cookie })).status).toBe(404);
    // The links follow: no report button on Analytics, the evidence link stays on the contact's page.
    expect(await (await call("/analytics", { cookie })).text()).not.toContain('href="/compliance"');
    expect(await (await call(`/contacts/${contact.id}`, { cookie })).text()).toContain(
      `/compliance/evidence.csv?contact=${contact.id}`,
    );
  });
});
