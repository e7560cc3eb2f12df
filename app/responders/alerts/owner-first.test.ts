import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { replyWorld } from "../../../tests/reply-world";
import { alertRulesMadeHere, staffAlertRule } from "../../../tests/alert-rules";
import { createTestUser, db } from "../../../tests/factories";
import { sendMessages } from "~/messaging/consume-send-batch.server";
import { answeredSince, dueDeferredAlerts, sendDeferredAlerts } from "./route-alert-to-owner.server";
import { listAlerts } from "./list-alerts.server";
import { ownerRoutingNote } from "./owner-routing-note";
import { plan } from "../../../tests/query-plan";

// Owner first (issue 27 item 2, decision 050): an owned contact's alert goes to its owner at once; the profile's
// recipients get it after the profile's owner-first delay, unless a person answered the contact first.

const MIN = 60_000;
const DAY = new Date("2026-11-20T18:30:00Z");
const made = alertRulesMadeHere();

async function ownedWorld(opts: { delay: number; ownerActive?: boolean }) {
  const w = await replyWorld(DAY, { contact: { lastName: "Owned" } });
  const owner = await createTestUser({ firstName: "Olive", lastName: "Owner", isActive: opts.ownerActive ?? true });
  await db().run(sql`UPDATE contacts SET owner_user_id = ${owner.id} WHERE id = ${w.contact.id}`);
  const rule = await staffAlertRule(made, DAY, { profile: { ownerEscalationMinutes: opts.delay } });
  const deps = { db: db(), queue: w.queue, config: w.replies.config };
  const alertEmails = (id: number) =>
    db().all<{ email: string }>(
      sql`SELECT email FROM messages WHERE idempotency_key LIKE ${`alert:${id}:%`} ORDER BY id`,
    );
  return { w, owner, rule, deps, alertEmails };
}

const alertOf = (inboundId: number) =>
  db().get<Record<string, any>>(sql`SELECT * FROM alerts WHERE inbound_message_id = ${inboundId}`);

describe("owner-first alerts", () => {
  it("alerts the owner at once and the profile's recipient only when the delay passes unanswered, once", async () => {
    const { w, owner, rule, deps, alertEmails } = await ownedWorld({ delay: 10 });
    const inbound = await w.inbound(`How much is it, ${rule.word}?`);
    const alert = (await alertOf(inbound.messageId!))!;
    expect(alert).toMatchObject({
      owner_user_id: owner.id,
      deferred_due_at: DAY.getTime() + 10 * MIN,
      deferred_outcome: null,
    });
    expect(JSON.parse(alert.deferred_to)).toEqual([rule.email]);
    expect(await alertEmails(alert.id)).toEqual([{ email: owner.email }]);
    await sendMessages(w.queue.takeSendJobs(), w.deps);
    const mails = await w.sendgrid.calls();
    expect(mails.filter((c) => c.to.includes(owner.email))).toHaveLength(1);
    expect(mails.filter((c) => c.to.includes(rule.email))).toHaveLength(0);

    await sendDeferredAlerts({ ...deps, now: new Date(DAY.getTime() + 9 * MIN) });
    expect(await alertEmails(alert.id)).toEqual([{ email: owner.email }]);
    await sendDeferredAlerts({ ...deps, now: new Date(DAY.getTime() + 10 * MIN) });
    await sendDeferredAlerts({ ...deps, now: new Date(DAY.getTime() + 11 * MIN) }); // the next tick: not again
    expect(await alertEmails(alert.id)).toEqual([{ email: owner.email }, { email: rule.email }]);
    expect((await alertOf(inbound.messageId!))!).toMatchObject({ deferred_due_at: null, deferred_outcome: "sent" });
    await sendMessages(w.queue.takeSendJobs(), w.deps);
    const late = (await w.sendgrid.calls()).filter((c) => c.to.includes(rule.email));
    expect(late).toHaveLength(1);
    expect(late[0].text).toContain(owner.email);
    expect(late[0].text).toContain(rule.word);

    const listed = (await listAlerts(db(), { limit: 100 })).alerts.find((a) => a.id === alert.id)!;
    expect(ownerRoutingNote(listed)).toBe(
      `Sent to the owner, Olive Owner; not answered in time, then to ${rule.email}`,
    );
  });

  it("tells nobody more when a person answered the contact before the delay passed", async () => {
    const { w, owner, rule, deps, alertEmails } = await ownedWorld({ delay: 10 });
    const inbound = await w.inbound(`${rule.word} please`);
    const alert = (await alertOf(inbound.messageId!))!;
    await w.personReplies("Hi Rosa, Olive here — I'll send the numbers now.", new Date(DAY.getTime() + 3 * MIN));
    await sendDeferredAlerts({ ...deps, now: new Date(DAY.getTime() + 10 * MIN) });
    expect(await alertEmails(alert.id)).toEqual([{ email: owner.email }]);
    const after = (await alertOf(inbound.messageId!))!;
    expect(after).toMatchObject({ deferred_due_at: null, deferred_outcome: "answered" });
    const listed = (await listAlerts(db(), { limit: 100 })).alerts.find((a) => a.id === alert.id)!;
    expect(ownerRoutingNote(listed)).toContain("answered before");
  });

  it("with a delay of 0 sends to the owner and the profile's recipient at once; an inactive owner's contact goes as before", async () => {
    const zero = await ownedWorld({ delay: 0 });
    const a = await zero.w.inbound(`${zero.rule.word}?`);
    const alertA = (await alertOf(a.messageId!))!;
    expect(alertA).toMatchObject({ owner_user_id: zero.owner.id, deferred_due_at: null, deferred_to: null });
    expect((await zero.alertEmails(alertA.id)).map((r) => r.email).sort()).toEqual(
      [zero.owner.email, zero.rule.email].sort(),
    );

    const gone = await ownedWorld({ delay: 10, ownerActive: false });
    const b = await gone.w.inbound(`${gone.rule.word}?`);
    const alertB = (await alertOf(b.messageId!))!;
    expect(alertB).toMatchObject({ owner_user_id: null, deferred_due_at: null });
    expect(await gone.alertEmails(alertB.id)).toEqual([{ email: gone.rule.email }]);
  });

  it("the due read seeks alerts_deferred_due_idx and the answer check the contact's thread index", async () => {
    const due = await plan(dueDeferredAlerts(db(), DAY, 100).getSQL());
    expect(due).toMatch(/SEARCH alerts USING INDEX alerts_deferred_due_idx/);
    expect(due).not.toMatch(/SCAN alerts|USE TEMP B-TREE/);
    const thread = await plan(answeredSince(db(), 1, 5).getSQL());
    expect(thread).toMatch(
      /SEARCH messages USING INDEX messages_contact_thread_idx \(contact_id=\? AND (rowid|id)>\?\)/,
    );
  });
});
