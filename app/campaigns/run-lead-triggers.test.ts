import { sql } from "drizzle-orm";
import { afterEach, describe, expect, it } from "vitest";
import type { EnrollCampaignJob, SendJob } from "~/jobs/jobs";
import { sendMessages } from "~/messaging/consume-send-batch.server";
import { suppress } from "~/messaging/compliance.server";
import { enqueueDueMessages } from "~/messaging/enqueue-due-messages.server";
import { QUIET_HOURS_NOTE } from "~/messaging/quiet-hours";
import { uniquePhone, uniqueTag } from "../../tests/contact-factory";
import { createTestUser } from "../../tests/factories";
import { postTestLead } from "../../tests/lead-triggers";
import { pipeline } from "../../tests/messaging-harness";
import { addCampaignContacts } from "./add-campaign-contacts.server";
import { addCampaignStep } from "./add-campaign-step.server";
import { checkStep, stepSchema } from "./campaign-schema";
import { createCampaign } from "./create-campaign.server";
import { getCampaign } from "./get-campaign.server";
import { createSequenceTrigger, setSequenceTriggerEnabled } from "./manage-sequence-triggers.server";
import { pauseCampaign } from "./pause-campaign.server";
import { runEnrollmentJob } from "./run-enrollment-job.server";
import { matchingRulesQuery, runLeadTriggers } from "./run-lead-triggers.server";
import { startCampaign } from "./start-campaign.server";

const SECOND = 1000;

// The database is shared by the test files: a rule for any source would enrol other files' leads, so each test's
// rules are switched off when it ends, and assertions look only at this test's campaigns.
const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0)) await c();
});
const mine = <T extends { campaignId: number }>(rows: T[], ...seqs: { campaignId: number }[]) =>
  rows.filter((r) => seqs.some((s) => s.campaignId === r.campaignId));
// Past instants (the consumer's paced slots never wait on the real clock). Phoenix has no DST: MST = UTC−7.
/** Tuesday 10:00 in Phoenix. */
const MORNING = Date.parse("2025-06-10T17:00:00Z");
/** Tuesday 22:00 in Phoenix: past the 21:00 end of the calling window. */
const NIGHT = Date.parse("2025-06-11T05:00:00Z");
/** Wednesday 08:00 in Phoenix, when that window opens again. */
const NEXT_OPENING = Date.parse("2025-06-11T15:00:00Z");

/** A controllable clock, the pipeline against the fake Twilio, a user, and a running sequence fed by a rule. */
async function world(start: number) {
  const clock = { t: start };
  const now = () => new Date(clock.t);
  const { deps, twilio, queue } = await pipeline({ clock: now });
  const user = await createTestUser();
  const actor = { userId: user.id, role: "superuser" as const, ipAddress: null };

  /** A sequence "Speed to lead" (first step at once), with a rule for `source` (null = any), started. */
  async function sequence(source: string | null, opts: { start?: boolean } = {}) {
    const c = await createCampaign(deps.db, { name: uniqueTag("Lead seq ") }, actor, now());
    await addCampaignStep(
      deps.db,
      c.id,
      checkStep(stepSchema.parse({ name: "Hello", content: "Hi {{firstName}}, thanks for asking about solar!" })),
      now(),
    );
    const rule = await createSequenceTrigger(deps.db, { name: "Web leads", source, campaignId: c.id }, actor, now());
    cleanups.push(() => setSequenceTriggerEnabled(deps.db, rule.id, false, actor, now()));
    if (opts.start !== false) {
      // A rule lets an empty sequence start: its contacts are the leads to come.
      await startCampaign(deps.db, queue, c.id, actor, now());
      await runQueue();
    }
    return { campaignId: c.id, ruleId: rule.id };
  }
  /** Runs what the queue holds, as the consumer would, each batch a couple of seconds after the last. */
  async function runQueue() {
    for (let i = 0; i < 20; i++) {
      const jobs = queue.sent.splice(0) as (SendJob | EnrollCampaignJob)[];
      if (!jobs.length) return;
      clock.t += 2 * SECOND;
      for (const j of jobs)
        if (j.type === "enroll-campaign") await runEnrollmentJob(j, { db: deps.db, queue, now: now() });
      const sends = jobs.filter((j): j is SendJob => j.type === "send");
      if (sends.length) await sendMessages(sends, deps);
    }
  }
  const lead = (source: string | null, fields = {}) =>
    postTestLead(
      { db: deps.db, queue },
      { source, now: now(), userId: user.id, fields: { state: "AZ", phone: uniquePhone(["602", "480"]), ...fields } },
    );
  const stepMessages = (campaignId: number) =>
    deps.db.all<{
      id: number;
      contact_id: number;
      status: string;
      created_at: number;
      sent_at: number | null;
      scheduled_at: number;
      error_message: string | null;
      phone: string;
    }>(
      sql`SELECT id, contact_id, status, created_at, sent_at, scheduled_at, error_message, phone FROM messages WHERE campaign_id = ${campaignId} ORDER BY id`,
    );
  const enrollments = (campaignId: number) =>
    deps.db.all<{ contact_id: number; status: string }>(
      sql`SELECT contact_id, status FROM campaign_enrollments WHERE campaign_id = ${campaignId}`,
    );
  return { clock, now, deps, twilio, queue, actor, sequence, runQueue, lead, stepMessages, enrollments };
}

describe("speed to lead: a lead's first text", () => {
  it("reaches Twilio within 60 s of the lead when the contact's window is open", async () => {
    const w = await world(MORNING);
    const seq = await w.sequence(null);
    // The campaign stays running with nobody waiting: a rule feeds it.
    expect((await getCampaign(w.deps.db, seq.campaignId)).status).toBe("running");

    w.clock.t = MORNING + 60 * SECOND;
    const leadAt = w.clock.t;
    const { contact, triggered } = await w.lead("EnergySage", { firstName: "Rosa" });
    expect(mine(triggered.enrolled, seq)).toEqual([expect.objectContaining({ campaignId: seq.campaignId })]);
    await w.runQueue(); // the send queue's consumer, a few seconds later — no cron tick in between

    const calls = await w.twilio.calls();
    expect(calls).toHaveLength(1);
    expect(calls[0]).toMatchObject({ to: contact.phone, body: "Hi Rosa, thanks for asking about solar!" });
    const [m] = await w.stepMessages(seq.campaignId);
    expect(m.status).toBe("sent");
    expect(m.created_at - leadAt).toBeLessThanOrEqual(60 * SECOND);
    expect(m.sent_at! - leadAt).toBeGreaterThanOrEqual(0);
    expect(m.sent_at! - leadAt).toBeLessThanOrEqual(60 * SECOND);
  });

  it("at 22:00 local waits, pending, for the window's opening (08:00 local) and is sent then", async () => {
    const w = await world(NIGHT - 3600 * SECOND);
    const seq = await w.sequence("Door knock");
    w.clock.t = NIGHT;
    const { contact } = await w.lead("door KNOCK ", { firstName: "Ana" });
    await w.runQueue();
    expect(await w.twilio.calls()).toHaveLength(0);
    // Deferred by the pipeline's quiet hours, never dropped: the message exists, due at the opening.
    const [waiting] = await w.stepMessages(seq.campaignId);
    expect(waiting).toMatchObject({
      contact_id: contact.id,
      status: "pending",
      error_message: `${QUIET_HOURS_NOTE} (Federal (TCPA): 47 CFR 64.1200(c)(1))`, // Arizona: the federal rule
    });
    expect(waiting.scheduled_at).toBe(NEXT_OPENING);

    // The cron's pending-message task at the opening (this test's row only: the database is shared).
    w.clock.t = NEXT_OPENING;
    await enqueueDueMessages(w.deps.db, w.queue, w.now(), [waiting.id]);
    await w.runQueue();
    const calls = await w.twilio.calls();
    expect(calls).toHaveLength(1);
    expect(calls[0].to).toBe(contact.phone);
    const [sent] = await w.stepMessages(seq.campaignId);
    expect(sent.status).toBe("sent");
    expect(sent.sent_at! - NEXT_OPENING).toBeLessThanOrEqual(60 * SECOND);
  });
});

describe("speed to lead: which rules fire", () => {
  it("an exact source matches case-insensitively and trimmed; another source does not; 'any' matches every lead", async () => {
    const w = await world(MORNING + 7 * 86_400_000);
    const tag = uniqueTag("Vendor");
    const exact = await w.sequence(tag);
    const any = await w.sequence(null);
    const a = await w.lead(`  ${tag.toUpperCase()} `);
    expect(mine(a.triggered.enrolled, exact, any).map((e) => e.campaignId)).toEqual([exact.campaignId, any.campaignId]);
    const b = await w.lead(uniqueTag("Other"));
    expect(b.triggered.enrolled.map((e) => e.campaignId)).toContain(any.campaignId);
    expect(b.triggered.enrolled.map((e) => e.campaignId)).not.toContain(exact.campaignId);
    const c = await w.lead(null);
    expect(c.triggered.enrolled.map((e) => e.campaignId)).toContain(any.campaignId);
    expect(c.triggered.enrolled.map((e) => e.campaignId)).not.toContain(exact.campaignId);
    expect((await w.enrollments(exact.campaignId)).map((e) => e.contact_id)).toEqual([a.contact.id]);
  });

  it("a disabled rule and a campaign that is not running start nothing", async () => {
    const w = await world(MORNING + 8 * 86_400_000);
    const tag = uniqueTag("Src");
    const off = await w.sequence(tag);
    await setSequenceTriggerEnabled(w.deps.db, off.ruleId, false, w.actor, w.now());
    const draft = await w.sequence(tag, { start: false });
    const paused = await w.sequence(tag);
    await pauseCampaign(w.deps.db, paused.campaignId, w.actor, w.now());
    const { triggered } = await w.lead(tag);
    expect(mine(triggered.enrolled, off, draft, paused)).toEqual([]);
    expect(mine(triggered.skipped, off, draft, paused)).toEqual(
      expect.arrayContaining([
        { ruleId: draft.ruleId, campaignId: draft.campaignId, reason: "campaign_not_running" },
        { ruleId: paused.ruleId, campaignId: paused.campaignId, reason: "campaign_not_running" },
      ]),
    );
    for (const s of [off, draft, paused]) expect(await w.enrollments(s.campaignId)).toEqual([]);
  });

  it("enrols once: the lead posted twice, or a contact already in the campaign, gets no second enrolment or text", async () => {
    const w = await world(MORNING + 9 * 86_400_000);
    const tag = uniqueTag("Src");
    const seq = await w.sequence(tag);
    const { contact } = await w.lead(tag);
    await w.runQueue();
    const again = await runLeadTriggers(
      { db: w.deps.db, queue: w.queue },
      { contactId: contact.id, source: tag, now: w.now() },
    );
    expect(mine(again.enrolled, seq)).toEqual([]);
    expect(mine(again.skipped, seq)).toEqual([
      { ruleId: seq.ruleId, campaignId: seq.campaignId, reason: "already_enrolled" },
    ]);
    await w.runQueue();
    expect(await w.enrollments(seq.campaignId)).toHaveLength(1);
    expect(await w.twilio.calls()).toHaveLength(1);

    // Already picked into the campaign by hand before the lead arrived.
    const seq2 = await w.sequence(uniqueTag("Src"));
    const other = await w.lead(null);
    await addCampaignContacts(w.deps.db, seq2.campaignId, [other.contact.id], w.now());
    const r = await runLeadTriggers(
      { db: w.deps.db, queue: w.queue },
      { contactId: other.contact.id, source: null, now: w.now() },
    );
    expect(r.enrolled.map((e) => e.campaignId)).not.toContain(seq2.campaignId);
  });

  it("an opted-out contact is not enrolled", async () => {
    const w = await world(MORNING + 10 * 86_400_000);
    const tag = uniqueTag("Src");
    const seq = await w.sequence(tag);
    const phone = uniquePhone(["602"]);
    await suppress(w.deps.db, { channel: "sms", address: phone, reason: "stop" }, w.now());
    const { triggered } = await w.lead(tag, { phone });
    expect(mine(triggered.skipped, seq)).toEqual([
      { ruleId: seq.ruleId, campaignId: seq.campaignId, reason: "opted_out" },
    ]);
    expect(await w.enrollments(seq.campaignId)).toEqual([]);
  });

  it("keeps the first lead's time and source for the figures", async () => {
    const w = await world(MORNING + 11 * 86_400_000);
    const { contact } = await w.lead("Zillow");
    const first = w.clock.t;
    w.clock.t += 3600 * SECOND;
    await runLeadTriggers({ db: w.deps.db, queue: w.queue }, { contactId: contact.id, source: "Other", now: w.now() });
    const row = await w.deps.db.get<{ lead_at: number; lead_source: string }>(
      sql`SELECT lead_at, lead_source FROM contact_response_times WHERE contact_id = ${contact.id}`,
    );
    expect(row).toEqual({ lead_at: first, lead_source: "Zillow" });
  });
});

describe("speed to lead: the lookup", () => {
  it("finds a lead's rules through sequence_triggers_match_idx and each campaign by its key, never a scan", async () => {
    const { deps } = await pipeline();
    const { sql: text, params } = matchingRulesQuery(deps.db, "energysage").toSQL();
    const rows = await deps.db.$client
      .prepare(`EXPLAIN QUERY PLAN ${text}`)
      .bind(...params)
      .all<{ detail: string }>();
    const plan = rows.results.map((r) => r.detail).join(" | ");
    expect(plan).toMatch(/SEARCH sequence_triggers USING INDEX sequence_triggers_match_idx/);
    expect(plan).toMatch(/SEARCH campaigns USING INTEGER PRIMARY KEY/);
    expect(plan).not.toMatch(/SCAN/);
  });
});
