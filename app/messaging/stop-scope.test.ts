import { eq, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { saveStopScope } from "~/deliverability/save-stop-scope.server";
import { loadTenDlcReadiness } from "~/deliverability/ten-dlc-readiness.server";
import { activityLog, contacts, orgSettings, suppressions, users } from "~/db/schema";
import { isAppError } from "~/lib/app-error";
import { createTestContact, uniquePhone } from "../../tests/contact-factory";
import { createTestUser, db } from "../../tests/factories";
import { appHooks, DAYTIME, pipeline, queueMessage } from "../../tests/messaging-harness";
import { sendMessages } from "./consume-send-batch.server";
import { NO_MARKETING_CONSENT_REASON, OPTED_OUT_REASON } from "./compliance.server";
import { checkBroadcast } from "./check-broadcast.server";
import { ingestLeads } from "~/contacts/ingest-leads.server";
import { createTwilioSms } from "./providers/twilio.server";
import { receiveInboundSms } from "./receive-inbound.server";
import {
  INFORMATIONAL_SENDER_KEY,
  optOutScope,
  REVOKE_ALL_FROM,
  STOP_SCOPE_KEY,
  stopRuleAt,
  type StopScopeSetting,
} from "./stop-scope";

// What a STOP covers (issue 29 item 2, decision 072): per purpose while the FCC's revoke-all rule waits, with a
// separate informational number for appointment texts; everything once it applies or a superuser pins it.

const NOW = DAYTIME; // 2026-11-18: before the revoke-all rule
const AFTER = new Date(REVOKE_ALL_FROM + 60_000);
const INFO = "+16025559001";

async function settings(setting: StopScopeSetting | null, informational: string | null) {
  await db()
    .delete(orgSettings)
    .where(sql`${orgSettings.key} IN (${STOP_SCOPE_KEY}, ${INFORMATIONAL_SENDER_KEY})`);
  const rows = [
    ...(setting ? [{ key: STOP_SCOPE_KEY, value: setting, updatedAt: NOW }] : []),
    ...(informational ? [{ key: INFORMATIONAL_SENDER_KEY, value: informational, updatedAt: NOW }] : []),
  ];
  if (rows.length) await db().insert(orgSettings).values(rows);
}

/** A contact in Arizona (no DST, daytime at NOW), the pipeline on a fresh fake Twilio account. */
async function world(setting: StopScopeSetting | null, informational: string | null = INFO) {
  await settings(setting, informational);
  const p = await pipeline({ clock: () => NOW });
  const user = await createTestUser();
  const contact = await createTestContact(user.id, { state: "AZ", phone: uniquePhone(["602", "480"]) });
  let seq = 0;
  const stop = (to: string, body = "STOP", at = NOW) =>
    receiveInboundSms(db(), p.queue, { sid: `SMstop${contact.id}x${seq++}`, from: contact.phone, to, body }, at);
  /** One text of `kind` to the contact, through the consumer; its row after. */
  const text = async (kind: "appointment" | "broadcast" | "individual", now = NOW) => {
    p.queue.takeSendJobs();
    const id = await queueMessage(
      p.deps,
      p.queue,
      { kind, phone: contact.phone, contactId: contact.id, content: `A ${kind} text`, createdBy: user.id },
      now,
      appHooks,
    );
    await sendMessages(p.queue.takeSendJobs(), { ...p.deps, clock: () => now });
    return db().get<{ status: string; error_message: string | null; from_address: string | null }>(
      sql`SELECT status, error_message, from_address FROM messages WHERE id = ${id}`,
    );
  };
  const state = async () => ({
    contact: await db()
      .select({ at: contacts.optedOutAt, source: contacts.optedOutSource, scope: contacts.optedOutScope })
      .from(contacts)
      .where(eq(contacts.id, contact.id))
      .get(),
    suppression: await db()
      .select({ reason: suppressions.reason, scope: suppressions.scope })
      .from(suppressions)
      .where(eq(suppressions.address, contact.phone))
      .get(),
    events: (
      await db().all<{ kind: string; source: string }>(
        sql`SELECT kind, source FROM compliance_events WHERE contact_id = ${contact.id} AND kind IN ('opt_out', 'opt_in') ORDER BY id`,
      )
    ).map((e) => `${e.kind}: ${e.source}`),
  });
  return { ...p, user, contact, stop, text, state, marketing: p.deps.sms.sender };
}

describe("the rule in force", () => {
  it("follows the FCC: per purpose until 2027-01-31 (US Eastern), then every text; a pinned setting stays", () => {
    expect(stopRuleAt("fcc", new Date(REVOKE_ALL_FROM - 1))).toBe("purpose");
    expect(stopRuleAt("fcc", new Date(REVOKE_ALL_FROM))).toBe("all");
    expect(new Date(REVOKE_ALL_FROM).toISOString()).toBe("2027-01-31T05:00:00.000Z");
    expect(stopRuleAt("purpose", AFTER)).toBe("purpose");
    expect(stopRuleAt("all", NOW)).toBe("all");
  });

  it.each([
    ["fcc", INFO, "+16025550100", NOW, "marketing"],
    ["fcc", INFO, INFO, NOW, "all"], // a STOP to the informational number ends everything
    ["fcc", INFO, "+16025550100", AFTER, "all"],
    ["purpose", INFO, "+16025550100", AFTER, "marketing"],
    ["purpose", null, "+16025550100", NOW, "all"], // no second number: the carrier blocks every text anyway
    ["purpose", INFO, null, NOW, "all"], // an opt-out that reached no number (a rep, the API)
    ["all", INFO, "+16025550100", NOW, "all"],
  ] as const)("%s, informational %s, reached %s at %s → %s", (setting, informational, number, now, scope) => {
    expect(optOutScope({ setting, informationalSender: informational }, number, now)).toBe(scope);
  });
});

describe("a STOP per purpose (decision 072)", () => {
  it("a STOP to the marketing number ends marketing and the rep's texts; appointment texts go on from the informational number", async () => {
    const w = await world(null); // the default: follow the FCC
    // Waiting before the STOP: a broadcast and an appointment reminder.
    {
      const waitingBroadcast = await queueMessage(w.deps, w.queue, {
        kind: "broadcast",
        phone: w.contact.phone,
        contactId: w.contact.id,
        content: "Spring offer",
      });
      const waitingReminder = await queueMessage(w.deps, w.queue, {
        kind: "appointment",
        phone: w.contact.phone,
        contactId: w.contact.id,
        content: "See you tomorrow at 10",
      });
      w.queue.takeSendJobs();
      await w.stop(w.marketing);
      const rows = await db().all<{ id: number; status: string }>(
        sql`SELECT id, status FROM messages WHERE id IN (${waitingBroadcast}, ${waitingReminder}) ORDER BY id`,
      );
      expect(rows.map((r) => r.status)).toEqual(["skipped", "queued"]);
    }
    expect(await w.state()).toEqual({
      contact: { at: NOW, source: "STOP", scope: "marketing" },
      suppression: { reason: "STOP", scope: "marketing" },
      events: ["opt_out: STOP (marketing only)"],
    });

    expect(await w.text("broadcast")).toMatchObject({ status: "skipped", error_message: OPTED_OUT_REASON });
    expect(await w.text("individual")).toMatchObject({ status: "skipped", error_message: OPTED_OUT_REASON });
    expect(await w.text("appointment")).toMatchObject({ status: "sent", from_address: INFO });
    const calls = (await w.twilio.calls()).filter((c) => c.to === w.contact.phone);
    expect(calls.map((c) => [c.from, c.body])).toEqual([[INFO, "A appointment text"]]);
    // The informational number never becomes the contact's sticky sender (a rep's texts go from theirs).
    const sticky = await db().select({ s: contacts.smsSender }).from(contacts).where(eq(contacts.id, w.contact.id));
    expect(sticky[0].s).toBeNull();

    // A STOP to the informational number ends everything: the record says so, the reason stays the first one.
    await w.stop(INFO, "STOP", new Date(NOW.getTime() + 60_000));
    expect(await w.state()).toEqual({
      contact: { at: NOW, source: "STOP", scope: "all" },
      suppression: { reason: "STOP", scope: "all" },
      events: ["opt_out: STOP (marketing only)", "opt_out: STOP"],
    });
    expect(await w.text("appointment")).toMatchObject({ status: "skipped", error_message: OPTED_OUT_REASON });

    // START lifts it all; the next marketing STOP is of marketing again.
    await w.stop(w.marketing, "START", new Date(NOW.getTime() + 120_000));
    expect((await w.state()).contact).toEqual({ at: null, source: null, scope: null });
    expect(await w.text("broadcast")).toMatchObject({ status: "sent" });
  });

  it("plain words to the marketing number are of marketing only too", async () => {
    const w = await world("purpose");
    await w.stop(w.marketing, "Please stop texting me");
    expect((await w.state()).contact?.scope).toBe("marketing");
    expect(await w.text("appointment")).toMatchObject({ status: "sent", from_address: INFO });
  });

  it("ends every text when a superuser chose so, once the FCC rule applies, or with no informational number", async () => {
    const pinned = await world("all");
    await pinned.stop(pinned.marketing);
    expect(await pinned.state()).toMatchObject({ contact: { scope: "all" }, events: ["opt_out: STOP"] });
    expect(await pinned.text("appointment")).toMatchObject({ status: "skipped", error_message: OPTED_OUT_REASON });

    const later = await world("fcc");
    await later.stop(later.marketing, "STOP", AFTER);
    expect((await later.state()).suppression).toEqual({ reason: "STOP", scope: "all" });
    expect(await later.text("appointment", AFTER)).toMatchObject({ status: "skipped" });

    const single = await world("purpose", null);
    await single.stop(single.marketing);
    expect((await single.state()).contact?.scope).toBe("all");
    expect(await single.text("appointment")).toMatchObject({ status: "skipped" });
  });

  it("a carrier's 21610 on the marketing number is that number's opt-out: appointment texts still go from the other", async () => {
    const w = await world("fcc");
    await w.twilio.addUnsubscribed(w.contact.phone, w.marketing);
    expect(await w.text("broadcast")).toMatchObject({ status: "failed" });
    expect(await w.state()).toMatchObject({
      contact: { source: "provider:21610", scope: "marketing" },
      suppression: { scope: "marketing" },
    });
    expect(await w.text("appointment")).toMatchObject({ status: "sent", from_address: INFO });
  });
});

describe("the settings (superusers, Compliance)", () => {
  it("an informational number must be the account's own and nobody else's sender; the change is logged", async () => {
    await settings(null, null);
    const p = await pipeline({ clock: () => NOW });
    const twilio = createTwilioSms(p.twilio.config({ from: p.deps.sms.sender }));
    await p.twilio.addIncomingNumbers([p.deps.sms.sender, INFO]);
    const admin = await createTestUser({ role: "superuser" });
    const actor = { userId: admin.id, role: "superuser" as const, ipAddress: null };
    const refused = (sender: string) =>
      saveStopScope(db(), twilio, { setting: "purpose", informationalSender: sender }, actor, NOW).then(
        () => null,
        (e: unknown) => (isAppError(e) ? [e.code, e.message, e.field] : e),
      );
    expect(await refused(p.deps.sms.sender)).toEqual([
      "validation",
      `${p.deps.sms.sender} is the default sending number: informational texts need their own`,
      "informationalSender",
    ]);
    const rep = await createTestUser();
    const repNumber = uniquePhone(["602"]);
    await db().update(users).set({ smsSender: repNumber }).where(eq(users.id, rep.id));
    expect((await refused(repNumber)) as unknown[]).toContain(
      `${repNumber} is a rep's sending number: informational texts need their own`,
    );
    expect(await refused("+16025559999")).toEqual([
      "validation",
      "+16025559999 is not a phone number in this Twilio account",
      "informationalSender",
    ]);
    expect(await db().select().from(orgSettings).where(eq(orgSettings.key, INFORMATIONAL_SENDER_KEY))).toEqual([]);

    expect(await refused(INFO)).toBeNull();
    const saved = await db()
      .select({ key: orgSettings.key, value: orgSettings.value })
      .from(orgSettings)
      .where(sql`${orgSettings.key} IN (${STOP_SCOPE_KEY}, ${INFORMATIONAL_SENDER_KEY})`)
      .orderBy(orgSettings.key);
    expect(saved).toEqual([
      { key: INFORMATIONAL_SENDER_KEY, value: INFO },
      { key: STOP_SCOPE_KEY, value: "purpose" },
    ]);
    const [entry] = await db()
      .select({ details: activityLog.details })
      .from(activityLog)
      .where(eq(activityLog.action, "set_stop_scope"));
    expect(entry.details).toEqual({
      from: { setting: "fcc", informationalSender: null },
      to: { setting: "purpose", informationalSender: INFO },
    });

    // The 10DLC readiness screen checks its registration with the other senders.
    expect((await loadTenDlcReadiness(db(), p.deps.sms.sender)).senders).toEqual([p.deps.sms.sender, repNumber, INFO]);

    // Cleared: appointment texts go from the usual numbers again.
    await saveStopScope(db(), twilio, { setting: "all", informationalSender: null }, actor, NOW);
    expect(await db().select().from(orgSettings).where(eq(orgSettings.key, INFORMATIONAL_SENDER_KEY))).toEqual([]);
  });
});

describe("consent per purpose (decision 072)", () => {
  const ingest = (userId: number, leads: unknown[], onDuplicate: "skip" | "update" = "skip") =>
    ingestLeads(
      db(),
      {
        leads,
        onDuplicate,
        defaultSource: "Vendor",
        apiKeyId: null,
        userId,
        requestIp: null,
        idempotency: null,
        now: NOW,
      },
      async () => {},
    );
  const purposeOf = async (phone: string) => ({
    contact: (await db().select({ p: contacts.consentPurpose }).from(contacts).where(eq(contacts.phone, phone)).get())
      ?.p,
    records: (
      await db().all<{ purpose: string }>(
        sql`SELECT l.purpose FROM lead_consents l JOIN contacts c ON c.id = l.contact_id WHERE c.phone = ${phone} ORDER BY l.id`,
      )
    ).map((r) => r.purpose),
  });

  it("a lead that agreed to appointment texts only gets them and a rep's texts, never a broadcast; a marketing lead widens it", async () => {
    await settings(null, null);
    const p = await pipeline({ clock: () => NOW });
    const user = await createTestUser();
    const phone = uniquePhone(["602", "480"]);
    expect(
      await ingest(user.id, [{ firstName: "Ida", phone, state: "AZ", consent_purpose: "Informational" }]),
    ).toMatchObject({ status: 201 });
    expect(await purposeOf(phone)).toEqual({ contact: "informational", records: ["informational"] });
    const contact = (await db().select().from(contacts).where(eq(contacts.phone, phone)).get())!;

    // The check says so before anything is written; the consumer holds to it.
    const check = await checkBroadcast(db(), { type: "sms", content: "Spring offer", contactIds: [contact.id] }, NOW);
    expect(check.skipped).toMatchObject({ total: 1, noMarketingConsent: 1, optedOut: 0 });
    expect(check.recipients).toBe(0);
    const send = async (kind: "broadcast" | "appointment" | "individual" | "campaign") => {
      p.queue.takeSendJobs();
      const id = await queueMessage(
        p.deps,
        p.queue,
        { kind, phone, contactId: contact.id, content: `A ${kind}`, createdBy: user.id },
        NOW,
        appHooks,
      );
      await sendMessages(p.queue.takeSendJobs(), p.deps);
      return db().get<{ status: string; error_message: string | null }>(
        sql`SELECT status, error_message FROM messages WHERE id = ${id}`,
      );
    };
    expect(await send("broadcast")).toEqual({ status: "skipped", error_message: NO_MARKETING_CONSENT_REASON });
    expect(await send("campaign")).toEqual({ status: "skipped", error_message: NO_MARKETING_CONSENT_REASON });
    expect(await send("appointment")).toMatchObject({ status: "sent" });
    expect(await send("individual")).toMatchObject({ status: "sent" });

    // Another informational lead never narrows; a marketing one (the default) widens it.
    await ingest(user.id, [{ firstName: "Ida", phone, consent_purpose: "informational" }], "update");
    expect((await purposeOf(phone)).contact).toBe("informational");
    await ingest(user.id, [{ firstName: "Ida", phone }], "update");
    expect(await purposeOf(phone)).toEqual({
      contact: null,
      records: ["informational", "informational", "marketing"],
    });
    expect(await send("broadcast")).toMatchObject({ status: "sent" });
  });

  it("refuses a purpose it does not know, nothing stored", async () => {
    const user = await createTestUser();
    const phone = uniquePhone();
    const res = await ingest(user.id, [{ firstName: "Ned", phone, consent_purpose: "transactional" }]).then(
      (r) => r,
      (e: unknown) => (isAppError(e) ? { code: e.code, message: e.message, details: e.details } : e),
    );
    expect(JSON.stringify(res)).toContain('Lead 1: the consent purpose must be \\"marketing\\" or \\"informational\\"');
    expect(await db().select().from(contacts).where(eq(contacts.phone, phone))).toEqual([]);
  });
});
