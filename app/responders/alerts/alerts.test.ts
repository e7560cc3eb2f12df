import { sql } from "drizzle-orm";
import { replyWorld } from "../../../tests/reply-world";
import { describe, expect, it } from "vitest";
import { sendMessages } from "~/messaging/consume-send-batch.server";
import { uniqueTag } from "../../../tests/contact-factory";
import { call, db } from "../../../tests/factories";
import { unsubscribeToken } from "~/messaging/unsubscribe.server";
import { alertRulesMadeHere, staffAlertRule } from "../../../tests/alert-rules";
import { runInboundJob } from "../../../tests/messaging-harness";
import { MISSING_INFORMATION, parseBank, parseProfile } from "./alert-schema";
import { acknowledgeAlert } from "./acknowledge-alert.server";
import { loadSidebarCounts } from "~/http/load-sidebar-counts.server";
import { listAlerts } from "./list-alerts.server";
import { markAlert } from "./mark-alert.server";
import { categorize, escalateDueAlerts } from "./run-alerts.server";

const MIN = 60_000;
const DAY = new Date("2026-11-18T18:30:00Z");
const made = alertRulesMadeHere();

function world() {
  return replyWorld(DAY, { contact: { lastName: "Diaz" } });
}

function rules(
  opts: { bankPriority?: string; profilePriority?: string; autoResponse?: string; category?: string } = {},
) {
  return staffAlertRule(made, DAY, {
    profile: { keywords: `${uniqueTag("pk")}, ${uniqueTag("pk")}`, priority: opts.profilePriority ?? "medium" },
    bank: (word) => ({
      category: opts.category ?? "Pricing Concerns",
      keywords: ` ${word} , price `,
      priority: opts.bankPriority ?? "high",
      autoResponse: opts.autoResponse ?? "",
    }),
  });
}

const alertOf = (inboundId: number) =>
  db().get<Record<string, any>>(sql`SELECT * FROM alerts WHERE inbound_message_id = ${inboundId}`);

describe("alert profiles and keyword banks", () => {
  it("split keywords on commas, trim, apply the SPEC defaults, and refuse missing information", () => {
    const p = parseProfile({ name: "Closers", keywords: " price, cost ,, price", email: "a@b.co" });
    expect(p).toMatchObject({
      department: "Solar Sales",
      priority: "medium",
      escalationTime: 15,
      keywords: ["price", "cost"],
    });
    expect(JSON.parse(p.contactInfo)).toEqual({ email: "a@b.co", phone: "+1-555-0100" });
    expect(() => parseProfile({ name: "", keywords: "x" })).toThrow(MISSING_INFORMATION);
    expect(() => parseBank({ category: "Scheduling", keywords: " , " })).toThrow(MISSING_INFORMATION);
    expect(() => parseBank({ keywords: "x" })).toThrow(MISSING_INFORMATION);
    expect(parseBank({ category: "Scheduling", keywords: "book, call me" })).toMatchObject({
      priority: "medium",
      alertProfileId: null,
      useAi: false,
      keywords: ["book", "call me"],
    });
  });

  it("categorizes by intent, then bank category, then priority", () => {
    expect(categorize("appointment_request", [], "low")).toBe("appointment request");
    expect(categorize(null, ["Objection Handling"], "low")).toBe("objection");
    expect(categorize("other", [], "critical")).toBe("high-priority lead");
    expect(categorize("pricing_question", ["Pricing Concerns"], "medium")).toBe("information request");
  });
});

describe("the alert engine", () => {
  it("classifies a matching reply, emails the profile's staff through SendGrid with the text escaped, counts the bank, once per inbound", async () => {
    const w = await world();
    const { word, email, bank, profile } = await rules({ bankPriority: "high", profilePriority: "low" });
    const body = `What is the <b>price</b> for ${word}? & when`;
    const first = await w.inbound(body);
    const alert = await alertOf(first.messageId!);
    expect(alert).toMatchObject({
      priority: "high",
      category: "information request",
      status: "unacknowledged",
      profile_id: profile.id,
      contact_id: w.contact.id,
    });
    expect(alert!.intent).toBe("pricing_question");
    expect(alert!.escalation_due_at).toBe(DAY.getTime() + 20 * MIN);
    // Redelivered job: nothing new.
    await runInboundJob(w.deps.db, [first.messageId!], DAY, w.replies);
    expect(
      (await db().get<{ n: number }>(sql`SELECT trigger_count AS n FROM keyword_banks WHERE id = ${bank.id}`))!.n,
    ).toBe(1);

    await sendMessages(w.queue.takeSendJobs(), w.deps);
    const mails = (await w.sendgrid.calls()).filter((c) => c.to.includes(email));
    expect(mails).toHaveLength(1);
    expect(mails[0].subject).toContain("high");
    expect(mails[0].text).toContain(body);
    expect(mails[0].text).toContain(`https://helio.test/contacts/${w.contact.id}`);
    expect(mails[0].text).toContain("Rosa Diaz");
    expect(mails[0].html).toContain("&lt;b&gt;price&lt;/b&gt;");
    expect(mails[0].html).not.toContain("<b>price</b>");
  });

  it("sends the bank's autoResponse when set, and nothing for a reply that matches no rule", async () => {
    const w = await world();
    const { word } = await rules({ autoResponse: "A specialist will text you the numbers shortly." });
    const hit = await w.inbound(`${word}?`);
    const sms = await db().all<{ content: string; kind: string }>(
      sql`SELECT content, kind FROM messages WHERE phone = ${w.contact.phone} AND direction = 'outbound'`,
    );
    expect(sms).toEqual([{ content: "A specialist will text you the numbers shortly.", kind: "auto_reply" }]);
    expect(await alertOf(hit.messageId!)).toBeTruthy();
    const miss = await w.inbound(`nothing to see ${uniqueTag("zz")}`);
    expect(await alertOf(miss.messageId!)).toBeUndefined();
  });

  it("re-alerts the escalation address when nobody acknowledges within escalationTime; an acknowledged alert stays quiet", async () => {
    const w = await world();
    const { word } = await rules();
    const a = await w.inbound(`${word} now`);
    const b = await w.inbound(`${word} later`);
    const alertA = (await alertOf(a.messageId!))!;
    const alertB = (await alertOf(b.messageId!))!;
    await acknowledgeAlert(db(), alertB.id, w.user.id, new Date(DAY.getTime() + MIN));
    const deps = { db: db(), queue: w.queue, config: w.replies.config };
    w.queue.sent.splice(0);
    await escalateDueAlerts({ ...deps, now: new Date(DAY.getTime() + 19 * MIN) });
    expect(
      (await db().get<Record<string, any>>(sql`SELECT escalated_at FROM alerts WHERE id = ${alertA.id}`))!.escalated_at,
    ).toBeNull();
    await escalateDueAlerts({ ...deps, now: new Date(DAY.getTime() + 20 * MIN) });
    await escalateDueAlerts({ ...deps, now: new Date(DAY.getTime() + 21 * MIN) }); // the next tick: not again
    const rows = await db().all<{ email: string; idempotency_key: string }>(
      sql`SELECT email, idempotency_key FROM messages WHERE idempotency_key IN (${"alert-escalation:" + alertA.id}, ${"alert-escalation:" + alertB.id})`,
    );
    expect(rows).toEqual([{ email: "sales@helio.test", idempotency_key: `alert-escalation:${alertA.id}` }]);
    await sendMessages(w.queue.takeSendJobs(), w.deps);
    // Other tests' due alerts escalate in the same tick (one shared database): find this one's.
    const mails = (await w.sendgrid.calls()).filter(
      (c) => c.to.includes("sales@helio.test") && c.subject?.startsWith("Escalated") && c.text?.includes(word),
    );
    expect(mails).toHaveLength(1);
    expect(mails[0].text).toContain(`${word} now`);
  });

  it("the bell counts unacknowledged alerts; acknowledging and marking right/wrong take them off", async () => {
    const w = await world();
    const { word } = await rules();
    const before = (await loadSidebarCounts(db(), 0, new Date())).unacknowledged;
    const a = await w.inbound(`${word} one`);
    const b = await w.inbound(`${word} two`);
    expect((await loadSidebarCounts(db(), 0, new Date())).unacknowledged).toBe(before + 2);
    const alertA = (await alertOf(a.messageId!))!;
    const alertB = (await alertOf(b.messageId!))!;
    await acknowledgeAlert(db(), alertA.id, w.user.id, DAY);
    expect((await loadSidebarCounts(db(), 0, new Date())).unacknowledged).toBe(before + 1);
    const marked = await markAlert(db(), alertB.id, "wrong", w.user.id, DAY);
    expect((await loadSidebarCounts(db(), 0, new Date())).unacknowledged).toBe(before);
    expect(marked.classificationId).toBeTruthy();
    const cls = await db().get<{ marked_correct: number }>(
      sql`SELECT marked_correct FROM ai_classifications WHERE id = ${marked.classificationId}`,
    );
    expect(cls!.marked_correct).toBe(0);
    const page = await listAlerts(db(), { limit: 100 });
    expect(page.alerts.find((x) => x.id === alertB.id)).toMatchObject({ verdict: "wrong", status: "acknowledged" });
  });

  it("staff mail is not marketing: no List-Unsubscribe, and a one-click unsubscribe of the staff address skips no alert (issue 23)", async () => {
    const w = await world();
    const { word, email } = await rules();
    await w.inbound(`${word} first`);
    const firstJobs = w.queue.takeSendJobs();
    // The alert to `email` is queued; its recipient (or a mail client's link scanner) one-clicks an unsubscribe.
    const token = await unsubscribeToken("test-session-secret", email);
    expect(
      (
        await call(`/unsubscribe/${token}/one-click`, {
          method: "POST",
          body: new URLSearchParams({ "List-Unsubscribe": "One-Click" }),
        })
      ).status,
    ).toBe(200);
    expect(
      await db().get(sql`SELECT 1 AS x FROM suppressions WHERE channel = 'email' AND address = ${email}`),
    ).toBeTruthy();
    // An hour later: one conversation emails each recipient at most once an hour (decision 021).
    await w.inbound(`${word} second`, new Date(DAY.getTime() + 61 * MIN));
    await sendMessages([...firstJobs, ...w.queue.takeSendJobs()], w.deps);
    const rows = await db().all<{ status: string }>(
      sql`SELECT status FROM messages WHERE email = ${email} AND kind = 'alert' ORDER BY id`,
    );
    expect(rows.map((r) => r.status)).toEqual(["sent", "sent"]);
    const mails = (await w.sendgrid.calls()).filter((c) => c.to.includes(email));
    expect(mails).toHaveLength(2);
    for (const m of mails) {
      expect(Object.keys(m.headers).map((h) => h.toLowerCase())).not.toContain("list-unsubscribe");
      expect(m.text).not.toContain("Unsubscribe");
      expect(m.html).not.toContain("unsubscribe");
    }
  });
});
