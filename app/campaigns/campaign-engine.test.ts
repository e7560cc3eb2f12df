import { env } from "cloudflare:test";
import { eq, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { createDb, type Db } from "~/db/client.server";
import { campaignEnrollments, contactTags, contacts } from "~/db/schema";
import { messageIdsOf, SEND_QUEUE_BATCH } from "~/jobs/jobs";
import { saveSegment } from "~/segments/save-segment.server";
import { segmentDefinition } from "~/segments/segment-definition";
import type { EnrollCampaignJob, SendJob } from "~/jobs/jobs";
import { enqueueDueMessages } from "~/messaging/enqueue-due-messages.server";
import { receiveInboundSms } from "~/messaging/receive-inbound.server";
import { sendMessages } from "~/messaging/consume-send-batch.server";
import { longText, measuringD1 } from "../../tests/bound-values";
import { createTestContact, seedContacts, uniqueTag } from "../../tests/contact-factory";
import { createTestUser } from "../../tests/factories";
import { pipeline, runInboundJob } from "../../tests/messaging-harness";
import { addCampaignContacts } from "./add-campaign-contacts.server";
import { addCampaignStep } from "./add-campaign-step.server";
import { checkStep, stepSchema } from "./campaign-schema";
import { createCampaign } from "./create-campaign.server";
import { deleteCampaignStep } from "./delete-campaign-step.server";
import { dispatchDueSteps } from "./dispatch-due-steps.server";
import { getCampaign } from "./get-campaign.server";
import { listCampaignSteps } from "./list-campaign-steps.server";
import { pauseCampaign } from "./pause-campaign.server";
import { runEnrollmentJob } from "./run-enrollment-job.server";
import { startCampaign } from "./start-campaign.server";

// Every test runs in its own era, each earlier than the one before: the dispatcher reads every due enrolment in the
// (shared) database, so a later test's clock must never reach an earlier test's leftovers. All eras are in the past,
// so the consumer's paced slots never wait on the real clock.
let eraIndex = 0;
const HOUR = 3600_000;
const DAY = 24 * HOUR;
/** A Monday 18:00 UTC (11:00 in Phoenix), `k` × 4 weeks before 2026-01-05. */
function nextEra() {
  eraIndex += 1;
  return Date.parse("2026-01-05T18:00:00Z") - eraIndex * 28 * DAY;
}

let phoneSeq = 0;
/** Phoenix numbers (602 + state AZ): no DST, quiet hours 08:00–21:00 MST = 15:00–04:00 UTC. Never N11 or 555. */
function azPhone() {
  phoneSeq += 1;
  const pick = (digits: string) => digits[Math.floor(Math.random() * digits.length)];
  return `+1602${pick("2346789")}${pick("23456789")}${pick("0123456789")}${String(phoneSeq % 10000).padStart(4, "0")}`;
}

const step = (fields: Record<string, unknown>) =>
  checkStep(stepSchema.parse({ name: "Step", content: "Hi", ...fields }));

async function world(start: number, opts: { dbOverride?: Db } = {}) {
  const clock = { t: start };
  const now = () => new Date(clock.t);
  const { deps, twilio, sendgrid, queue } = await pipeline({ clock: now, dbOverride: opts.dbOverride });
  const user = await createTestUser();
  const actor = { userId: user.id, role: "superuser" as const, ipAddress: null };
  const contact = (fields: Record<string, unknown> = {}) =>
    createTestContact(user.id, {
      firstName: "Ana",
      lastName: uniqueTag("Sol"),
      phone: azPhone(),
      state: "AZ",
      ...fields,
    });

  /** Runs what the queue holds, like the consumer would: enrolment jobs and send batches, until it is empty. */
  async function runQueue() {
    for (let i = 0; i < 50; i++) {
      const jobs = queue.sent.splice(0) as (SendJob | EnrollCampaignJob | { type: string })[];
      if (jobs.length === 0) return;
      for (const j of jobs)
        if (j.type === "enroll-campaign")
          await runEnrollmentJob(j as EnrollCampaignJob, { db: deps.db, queue, now: now() });
      const sends = jobs.filter((j): j is SendJob => j.type === "send");
      if (sends.length) await sendMessages(sends, deps);
    }
  }
  /** One cron tick for this campaign's rows: pending messages whose time came (the pipeline's task), then due steps. */
  async function tick(campaignId: number) {
    const pending = await deps.db.all<{ id: number }>(
      sql`SELECT id FROM messages WHERE campaign_id = ${campaignId} AND status = 'pending' AND scheduled_at <= ${clock.t}`,
    );
    await enqueueDueMessages(
      deps.db,
      queue,
      now(),
      pending.map((p) => p.id),
    );
    const r = await dispatchDueSteps(deps.db, queue, now());
    await runQueue();
    return r;
  }
  const at = async (t: number, campaignId: number) => {
    clock.t = t;
    return tick(campaignId);
  };
  /** Sent step messages of a campaign: contact, step number (as created), sent time. */
  const sent = (campaignId: number) =>
    deps.db.all<{
      contact_id: number;
      step_id: number;
      enrollment_id: number;
      sent_at: number;
      content: string;
      status: string;
    }>(
      sql`SELECT contact_id, step_id, enrollment_id, sent_at, content, status FROM messages WHERE campaign_id = ${campaignId} AND direction = 'outbound' ORDER BY sent_at, id`,
    );
  const enrollment = (campaignId: number, contactId: number) =>
    deps.db.get<{
      id: number;
      status: string;
      next_run_at: number | null;
      stop_reason: string | null;
      next_step_number: number;
    }>(
      sql`SELECT id, status, next_run_at, stop_reason, next_step_number FROM campaign_enrollments WHERE campaign_id = ${campaignId} AND contact_id = ${contactId}`,
    );
  return { clock, now, deps, twilio, sendgrid, queue, actor, contact, runQueue, tick, at, sent, enrollment };
}

describe("campaign engine (fixed clock, real D1, fake Twilio)", () => {
  it("a 3-step sequence (0 h, 2 d 3 h, 5 d) sends each step at the right time per contact, then completes", async () => {
    const T0 = nextEra();
    const w = await world(T0);
    const a = await w.contact({ firstName: "Ada" });
    const b = await w.contact({ firstName: "Ben" });
    const c = await createCampaign(
      w.deps.db,
      { name: "Spring Solar", contactIds: [a.id], promoCode: "SUN26", offerExpiration: "2026-12-31" },
      w.actor,
      w.now(),
    );
    const s1 = await addCampaignStep(
      w.deps.db,
      c.id,
      step({
        name: "Intro",
        content: "Hi {{firstName}}, {{campaignName}}: code {{promoCode}} until {{offerExpiration}}",
      }),
      w.now(),
    );
    const s2 = await addCampaignStep(
      w.deps.db,
      c.id,
      step({ name: "Follow", content: "Follow-up {{firstName}}", delayDays: 2, delayHours: 3 }),
      w.now(),
    );
    const s3 = await addCampaignStep(
      w.deps.db,
      c.id,
      step({ name: "Last", content: "Last call {{firstName}}", delayDays: "5", delayHours: "x" }),
      w.now(),
    );
    expect((await listCampaignSteps(w.deps.db, c.id)).map((s) => [s.stepNumber, s.delayLabel])).toEqual([
      [1, "Immediate"],
      [2, "2d 3h"],
      [3, "5d"],
    ]);

    expect((await startCampaign(w.deps.db, w.queue, c.id, w.actor, w.now())).status).toBe("running");
    await w.runQueue(); // the enrolment job activates Ada
    await w.tick(c.id);
    // Ben joins an hour later and starts at step 1.
    await w.at(T0 + HOUR, c.id);
    await addCampaignContacts(w.deps.db, c.id, [b.id], w.now());
    await w.tick(c.id);

    const gap2 = 2 * DAY + 3 * HOUR;
    await w.at(T0 + gap2 - 60_000, c.id); // one minute early: nothing
    expect(await w.sent(c.id)).toHaveLength(2);
    await w.at(T0 + gap2, c.id);
    await w.at(T0 + HOUR + gap2, c.id);
    await w.at(T0 + gap2 + 5 * DAY - 60_000, c.id);
    expect(await w.sent(c.id)).toHaveLength(4);
    await w.at(T0 + gap2 + 5 * DAY, c.id);
    await w.at(T0 + HOUR + gap2 + 5 * DAY, c.id);

    const rows = await w.sent(c.id);
    expect(rows.map((r) => [r.contact_id, r.step_id, r.sent_at - T0, r.status])).toEqual([
      [a.id, s1.id, 0, "sent"],
      [b.id, s1.id, HOUR, "sent"],
      [a.id, s2.id, gap2, "sent"],
      [b.id, s2.id, HOUR + gap2, "sent"],
      [a.id, s3.id, gap2 + 5 * DAY, "sent"],
      [b.id, s3.id, HOUR + gap2 + 5 * DAY, "sent"],
    ]);
    expect(rows[0].content).toBe("Hi Ada, Spring Solar: code SUN26 until December 31, 2026");
    expect((await w.twilio.calls()).map((x) => x.body)).toEqual(rows.map((r) => r.content));

    // Nothing left: the next tick finishes both enrolments and the campaign completes by itself.
    await w.at(T0 + 30 * DAY, c.id);
    const done = await getCampaign(w.deps.db, c.id);
    expect(done).toMatchObject({
      status: "completed",
      contactCount: 2,
      sentCount: 6,
      progress: { enrolled: 2, waiting: 0, finished: 2, stopped: 0 },
    });
    expect(await w.twilio.calls()).toHaveLength(6);
  });

  it("a quiet-hours deferral of one step pushes the later steps (the gap counts from the real send)", async () => {
    const T0 = nextEra() + 11 * HOUR; // 05:00 UTC = 22:00 in Phoenix: quiet hours
    const w = await world(T0);
    const a = await w.contact();
    const c = await createCampaign(w.deps.db, { name: "Night", contactIds: [a.id] }, w.actor, w.now());
    await addCampaignStep(w.deps.db, c.id, step({ content: "one" }), w.now());
    await addCampaignStep(w.deps.db, c.id, step({ content: "two", delayHours: 1 }), w.now());
    await startCampaign(w.deps.db, w.queue, c.id, w.actor, w.now());
    await w.runQueue();
    await w.tick(c.id);
    expect(await w.sent(c.id)).toMatchObject([{ status: "pending", sent_at: null }]); // deferred to 08:00 local
    const opens = T0 + 10 * HOUR; // 15:00 UTC = 08:00 MST
    await w.at(opens - 60_000, c.id);
    expect(await w.twilio.calls()).toHaveLength(0);
    await w.at(opens, c.id);
    expect((await w.sent(c.id)).map((r) => [r.content, r.sent_at])).toEqual([["one", opens]]);
    expect((await w.enrollment(c.id, a.id))?.next_run_at).toBe(opens + HOUR); // not T0 + 1 h
    await w.at(opens + HOUR - 60_000, c.id);
    expect(await w.twilio.calls()).toHaveLength(1);
    await w.at(opens + HOUR, c.id);
    expect((await w.sent(c.id)).map((r) => [r.content, r.sent_at])).toEqual([
      ["one", opens],
      ["two", opens + HOUR],
    ]);
  });

  it("a send window moves the due time into the next window (weekdays only, contact's zone)", async () => {
    const monday = nextEra(); // Monday 18:00 UTC
    const friday = monday + 4 * DAY; // Friday 11:00 MST
    const w = await world(friday);
    const a = await w.contact();
    const c = await createCampaign(w.deps.db, { name: "Window", contactIds: [a.id] }, w.actor, w.now());
    await addCampaignStep(w.deps.db, c.id, step({ content: "fri" }), w.now());
    await addCampaignStep(
      w.deps.db,
      c.id,
      step({ content: "weekday", delayDays: 1, windowStart: "10:00", windowEnd: "17:00", windowWeekdays: "on" }),
      w.now(),
    );
    await startCampaign(w.deps.db, w.queue, c.id, w.actor, w.now());
    await w.runQueue();
    await w.tick(c.id);
    await w.at(friday + DAY, c.id); // Saturday: outside the window, nothing created, moved to Monday 10:00 MST
    expect(await w.sent(c.id)).toHaveLength(1);
    const nextMonday = Date.parse(new Date(monday + 7 * DAY).toISOString().slice(0, 10) + "T17:00:00Z");
    expect((await w.enrollment(c.id, a.id))?.next_run_at).toBe(nextMonday);
    await w.at(nextMonday - 60_000, c.id);
    expect(await w.sent(c.id)).toHaveLength(1);
    await w.at(nextMonday, c.id);
    expect((await w.sent(c.id)).map((r) => [r.content, r.sent_at])).toEqual([
      ["fri", friday],
      ["weekday", nextMonday],
    ]);
  });

  it("pause holds queued messages and parks due contacts; resume releases them: nothing lost, nothing twice", async () => {
    const T0 = nextEra();
    const w = await world(T0);
    const people = [await w.contact(), await w.contact(), await w.contact()];
    const leaver = await w.contact();
    const c = await createCampaign(
      w.deps.db,
      { name: "Pausable", contactIds: [...people, leaver].map((p) => p.id) },
      w.actor,
      w.now(),
    );
    await addCampaignStep(w.deps.db, c.id, step({ content: "first" }), w.now());
    await addCampaignStep(w.deps.db, c.id, step({ content: "second", delayDays: 1 }), w.now());
    await startCampaign(w.deps.db, w.queue, c.id, w.actor, w.now());
    await w.runQueue();
    // The tick creates and queues step 1, then the campaign is paused before the consumer runs.
    await dispatchDueSteps(w.deps.db, w.queue, w.now());
    expect((await w.sent(c.id)).map((r) => r.status)).toEqual(["queued", "queued", "queued", "queued"]);
    expect((await pauseCampaign(w.deps.db, c.id, w.actor, w.now())).status).toBe("paused");
    await w.runQueue();
    expect((await w.sent(c.id)).map((r) => r.status)).toEqual(["held", "held", "held", "held"]);
    // A contact deleted while paused: its held message is skipped at resume, never sent.
    await w.deps.db.run(sql`DELETE FROM contacts WHERE id = ${leaver.id}`);
    expect(await w.twilio.calls()).toHaveLength(0);
    await w.at(T0 + 2 * DAY, c.id); // still paused: nothing goes
    expect(await w.twilio.calls()).toHaveLength(0);

    w.clock.t = T0 + 2 * DAY + HOUR;
    expect((await startCampaign(w.deps.db, w.queue, c.id, w.actor, w.now())).status).toBe("running"); // resume
    await w.runQueue();
    expect(await w.twilio.calls()).toHaveLength(3);
    // Step 2 counts from the real send of step 1 (at resume): parked while paused, then due a day later.
    await w.at(w.clock.t + DAY - 60_000, c.id);
    expect(await w.twilio.calls()).toHaveLength(3);
    await pauseCampaign(w.deps.db, c.id, w.actor, w.now());
    await w.at(w.clock.t + 2 * 60_000, c.id); // due while paused → parked
    expect((await w.enrollment(c.id, people[0].id))?.status).toBe("paused");
    expect(await w.twilio.calls()).toHaveLength(3);
    await startCampaign(w.deps.db, w.queue, c.id, w.actor, w.now());
    await w.runQueue();
    await w.tick(c.id);
    await w.tick(c.id);
    const rows = await w.sent(c.id);
    expect(
      rows
        .filter((r) => r.status === "sent")
        .map((r) => r.content)
        .sort(),
    ).toEqual(["first", "first", "first", "second", "second", "second"]);
    expect(rows.filter((r) => r.status !== "sent").map((r) => [r.contact_id, r.status])).toEqual([[null, "skipped"]]);
    expect((await w.twilio.calls()).map((x) => x.to)).not.toContain(leaver.phone);
    expect(await w.twilio.calls()).toHaveLength(6);
  });

  it("stop on reply: a reply stops the contact's sequence (and counts as a response) unless the switch is off", async () => {
    const T0 = nextEra();
    const w = await world(T0);
    const a = await w.contact();
    const on = await createCampaign(w.deps.db, { name: "On", contactIds: [a.id] }, w.actor, w.now());
    const off = await createCampaign(
      w.deps.db,
      { name: "Off", contactIds: [a.id], stopOnReply: false },
      w.actor,
      w.now(),
    );
    for (const c of [on, off]) {
      await addCampaignStep(w.deps.db, c.id, step({ content: `${c.name} one` }), w.now());
      await addCampaignStep(w.deps.db, c.id, step({ content: `${c.name} two`, delayDays: 1 }), w.now());
      await startCampaign(w.deps.db, w.queue, c.id, w.actor, w.now());
    }
    await w.runQueue();
    await w.tick(on.id);
    w.clock.t += 60_000;
    const inbound = await receiveInboundSms(
      w.deps.db,
      w.queue,
      {
        sid: "SM" + crypto.randomUUID().replace(/-/g, ""),
        from: a.phone,
        to: "+16025550100",
        body: "Sounds good, call me",
      },
      w.now(),
    );
    w.queue.sent.splice(0); // the inbound job: run the reply processors directly
    await runInboundJob(w.deps.db, [inbound.messageId!], w.now());
    await runInboundJob(w.deps.db, [inbound.messageId!], w.now()); // redelivery changes nothing
    expect(await w.enrollment(on.id, a.id)).toMatchObject({ status: "stopped", stop_reason: "replied" });
    expect((await w.enrollment(off.id, a.id))?.status).toBe("active");
    await w.at(T0 + 2 * DAY, on.id);
    expect((await w.twilio.calls()).map((x) => x.body).sort()).toEqual(["Off one", "Off two", "On one"]);
    const stopped = await getCampaign(w.deps.db, on.id);
    expect(stopped).toMatchObject({ status: "completed", progress: { waiting: 0, stopped: 1 } });
    // Attributed to the campaign that texted last (decision 006): both texted at T0; exactly one counts it.
    const total =
      (await getCampaign(w.deps.db, on.id)).responseCount + (await getCampaign(w.deps.db, off.id)).responseCount;
    expect(total).toBe(1);
  });

  it("an opt-out mid-sequence stops the contact everywhere; a deleted contact leaves the campaign", async () => {
    const T0 = nextEra();
    const w = await world(T0);
    const a = await w.contact();
    const b = await w.contact();
    const gone = await w.contact();
    const c = await createCampaign(w.deps.db, { name: "Opt", contactIds: [a.id, b.id, gone.id] }, w.actor, w.now());
    await addCampaignStep(w.deps.db, c.id, step({ content: "one" }), w.now());
    await addCampaignStep(w.deps.db, c.id, step({ content: "two", delayDays: 1 }), w.now());
    await startCampaign(w.deps.db, w.queue, c.id, w.actor, w.now());
    await w.runQueue();
    await w.tick(c.id);
    await receiveInboundSms(
      w.deps.db,
      w.queue,
      { sid: "SM" + crypto.randomUUID().replace(/-/g, ""), from: a.phone, to: "+16025550100", body: "STOP" },
      w.now(),
    );
    w.queue.sent.splice(0); // the STOP confirmation is not part of this campaign
    expect(await w.enrollment(c.id, a.id)).toMatchObject({ status: "stopped", stop_reason: "opted_out" });
    await w.deps.db.run(sql`DELETE FROM contacts WHERE id = ${gone.id}`);
    expect((await getCampaign(w.deps.db, c.id)).progress).toMatchObject({ enrolled: 2, waiting: 1, stopped: 1 });
    await w.at(T0 + DAY, c.id);
    await w.at(T0 + 2 * DAY, c.id);
    const bodies = (await w.twilio.calls())
      .filter((x) => x.to === a.phone || x.to === b.phone)
      .map((x) => `${x.to === a.phone ? "a" : "b"}:${x.body}`);
    expect(bodies.sort()).toEqual(["a:one", "b:one", "b:two"]);
    expect(await getCampaign(w.deps.db, c.id)).toMatchObject({
      status: "completed",
      progress: { finished: 1, stopped: 1, waiting: 0 },
    });
  });

  it("overlapping ticks and redelivered queue messages give exactly one message per (enrolment, step); O(due) reads", async () => {
    const T0 = nextEra();
    const w = await world(T0);
    const people = await Promise.all(Array.from({ length: 6 }, () => w.contact()));
    const c = await createCampaign(w.deps.db, { name: "Race", contactIds: people.map((p) => p.id) }, w.actor, w.now());
    await addCampaignStep(w.deps.db, c.id, step({ content: "once" }), w.now());
    // Not yet due: a second campaign whose contacts start next week must not be read by the tick.
    const later = await createCampaign(
      w.deps.db,
      { name: "Later", contactIds: people.map((p) => p.id), scheduledAt: new Date(T0 + 7 * DAY) },
      w.actor,
      w.now(),
    );
    await addCampaignStep(w.deps.db, later.id, step({ content: "later" }), w.now());
    await startCampaign(w.deps.db, w.queue, c.id, w.actor, w.now());
    await startCampaign(w.deps.db, w.queue, later.id, w.actor, w.now());
    await w.runQueue();
    const results = await Promise.all([
      dispatchDueSteps(w.deps.db, w.queue, w.now()),
      dispatchDueSteps(w.deps.db, w.queue, w.now()),
      dispatchDueSteps(w.deps.db, w.queue, w.now()),
    ]);
    expect(results.reduce((n, r) => n + r.created, 0)).toBe(6);
    const jobs = w.queue.sent.splice(0) as SendJob[];
    await Promise.all([sendMessages(jobs, w.deps), sendMessages([...jobs].reverse(), w.deps)]);
    await sendMessages(jobs, w.deps); // redelivery
    await w.tick(c.id);
    await w.tick(c.id);
    const rows = await w.sent(c.id);
    expect(new Set(rows.map((r) => r.enrollment_id)).size).toBe(6);
    expect(rows).toHaveLength(6);
    expect(await w.twilio.calls()).toHaveLength(6);
    // A tick with nothing due reads (almost) nothing, however many enrolments wait.
    const idle = await dispatchDueSteps(w.deps.db, w.queue, w.now());
    expect(idle.due).toBe(0);
    expect(idle.rowsRead).toBeLessThanOrEqual(1);
  });

  it("a step added while running reaches contacts that have not passed it; a deleted step is skipped and numbers stay sequential", async () => {
    const T0 = nextEra();
    const w = await world(T0);
    const a = await w.contact();
    const c = await createCampaign(w.deps.db, { name: "Edit", contactIds: [a.id] }, w.actor, w.now());
    await addCampaignStep(w.deps.db, c.id, step({ content: "one" }), w.now());
    const two = await addCampaignStep(w.deps.db, c.id, step({ content: "two", delayDays: 1 }), w.now());
    await startCampaign(w.deps.db, w.queue, c.id, w.actor, w.now());
    await w.runQueue();
    await w.tick(c.id);
    await addCampaignStep(w.deps.db, c.id, step({ name: "Added", content: "three", delayDays: 2 }), w.now());
    await deleteCampaignStep(w.deps.db, two.id, w.now());
    expect((await listCampaignSteps(w.deps.db, c.id)).map((s) => [s.stepNumber, s.content])).toEqual([
      [1, "one"],
      [2, "three"],
    ]);
    expect((await w.enrollment(c.id, a.id))?.next_run_at).toBe(T0 + 2 * DAY); // re-timed to the step it will now get
    await w.at(T0 + DAY, c.id);
    expect(await w.sent(c.id)).toHaveLength(1);
    await w.at(T0 + 2 * DAY, c.id);
    expect((await w.sent(c.id)).map((r) => [r.content, r.sent_at - T0])).toEqual([
      ["one", 0],
      ["three", 2 * DAY],
    ]);
  });

  it("start enrols an audience query in chunks through the queue, with progress on the campaign", async () => {
    const T0 = nextEra();
    const w = await world(T0);
    const tag = uniqueTag("Aud");
    const people = [];
    for (let i = 0; i < 7; i++) people.push(await w.contact({ company: tag }));
    const c = await createCampaign(w.deps.db, { name: "Audience", audienceQuery: tag }, w.actor, w.now());
    await addCampaignStep(w.deps.db, c.id, step({ content: "hello" }), w.now());
    await startCampaign(w.deps.db, w.queue, c.id, w.actor, w.now());
    let job = w.queue.sent.splice(0)[0] as EnrollCampaignJob;
    const seen: number[] = [];
    for (let i = 0; i < 10 && job; i++) {
      expect(
        await runEnrollmentJob(job, { db: w.deps.db, queue: w.queue, now: w.now(), chunk: 3, budgetMs: 0 }),
      ).not.toBe("stopped");
      seen.push((await getCampaign(w.deps.db, c.id)).progress.enrolled);
      job = w.queue.sent.splice(0)[0] as EnrollCampaignJob;
    }
    expect(seen.at(-1)).toBe(7);
    expect(seen.length).toBeGreaterThan(2); // it took several chunks, visible as they landed
    expect((await getCampaign(w.deps.db, c.id)).progress.enrolling).toBe(false);
    await w.tick(c.id);
    expect((await w.twilio.calls()).map((x) => x.to).sort()).toEqual(people.map((p) => p.phone).sort());
  });
});

describe("a segment audience (decision 075)", () => {
  it("enrols the segment's contacts at start; a later step goes only to those who still fit it", async () => {
    const T0 = nextEra();
    const w = await world(T0);
    const tag = uniqueTag("seg");
    const inIt = async (fields: Record<string, unknown>) => {
      const c = await w.contact(fields);
      await w.deps.db.insert(contactTags).values({ contactId: c.id, tag, createdAt: w.now() });
      return c;
    };
    const stays = await inIt({ firstName: "Ada" });
    const sells = await inIt({ firstName: "Ben" });
    const notSat = await inIt({ firstName: "Cy" });
    for (const c of [stays, sells]) await w.deps.db.update(contacts).set({ stage: "sat" }).where(eq(contacts.id, c.id));
    // "Sat, quiet for 30 days": the first step touches them, and the second still goes (the touch test is the way in).
    const s = await saveSegment(
      w.deps.db,
      {
        name: uniqueTag("Sat quiet "),
        definition: segmentDefinition.parse({ tags: [tag], stages: ["sat"], touch: { op: "none", days: 30 } }),
      },
      w.actor,
      w.now(),
    );
    const c = await createCampaign(w.deps.db, { name: "Sat, not sold", segmentId: s.id }, w.actor, w.now());
    await addCampaignStep(w.deps.db, c.id, step({ content: "one" }), w.now());
    await addCampaignStep(w.deps.db, c.id, step({ content: "two", delayDays: "2" }), w.now());
    // A contact who comes to fit before the start is enrolled: the segment is read at start.
    await w.deps.db.update(contacts).set({ stage: "sat" }).where(eq(contacts.id, notSat.id));
    await startCampaign(w.deps.db, w.queue, c.id, w.actor, w.now());
    await w.runQueue();
    expect((await getCampaign(w.deps.db, c.id)).progress.enrolled).toBe(3);
    await w.tick(c.id);
    expect(await w.sent(c.id)).toHaveLength(3);
    // Ben signs; Cy is moved back to New: neither fits any more when step two comes due.
    await w.deps.db.update(contacts).set({ stage: "sold" }).where(eq(contacts.id, sells.id));
    await w.deps.db.update(contacts).set({ stage: "new" }).where(eq(contacts.id, notSat.id));
    const r = await w.at(T0 + 2 * DAY, c.id);
    expect(r.leftSegment).toBe(2);
    expect((await w.sent(c.id)).filter((m) => m.content === "two").map((m) => m.contact_id)).toEqual([stays.id]);
    expect(await w.enrollment(c.id, sells.id)).toMatchObject({ status: "stopped", stop_reason: "left_segment" });
  });
});

describe("a standard user's audience (decision 048)", () => {
  it("'all matching' enrols the creator's own and unowned contacts, never another rep's, with and without a search", async () => {
    const T0 = nextEra();
    const w = await world(T0);
    const rep = await createTestUser({ role: "user" });
    const other = await createTestUser({ role: "user" });
    const tag = uniqueTag("Scope");
    const owned = async (owner: number | null) => {
      const x = await w.contact({ company: tag });
      await w.deps.db.update(contacts).set({ ownerUserId: owner }).where(eq(contacts.id, x.id));
      return x.id;
    };
    const visible = [await owned(rep.id), await owned(rep.id), await owned(null)];
    const hidden = [await owned(other.id), await owned(other.id)];
    const actor = { userId: rep.id, role: "user" as const, ipAddress: null };
    for (const audienceQuery of [tag, ""]) {
      const c = await createCampaign(w.deps.db, { name: `Mine ${audienceQuery}`, audienceQuery }, actor, w.now());
      await addCampaignStep(w.deps.db, c.id, step({ content: "hello" }), w.now());
      await startCampaign(w.deps.db, w.queue, c.id, actor, w.now());
      for (
        let job = w.queue.sent.splice(0)[0] as EnrollCampaignJob;
        job;
        job = w.queue.sent.splice(0)[0] as EnrollCampaignJob
      )
        await runEnrollmentJob(job, { db: w.deps.db, queue: w.queue, now: w.now(), chunk: 2, budgetMs: 0 });
      const enrolled = (
        await w.deps.db
          .select({ id: campaignEnrollments.contactId })
          .from(campaignEnrollments)
          .where(eq(campaignEnrollments.campaignId, c.id))
      ).map((r) => r.id);
      expect(enrolled.filter((id) => hidden.includes(id))).toEqual([]);
      expect(visible.every((id) => enrolled.includes(id))).toBe(true);
    }
  });
});

describe("campaign batches sized by bytes (D1 refuses a bound value over 2 MB)", () => {
  it("a 5,000-character email step goes out to 500 enrolled recipients on one cron tick, no bound value near the limit", async () => {
    const T0 = nextEra();
    const measured = measuringD1(env.DB);
    const w = await world(T0, { dbOverride: createDb(measured.d1) });
    const tag = uniqueTag("bytes");
    const people = await seedContacts(
      500,
      (i) => ({ firstName: `Zoë${i}`, phone: azPhone(), state: "AZ", email: `z${i}.${tag}@example.com` }),
      w.actor.userId,
    );
    const c = await createCampaign(
      w.deps.db,
      { name: "Long read", contactIds: people.map((p) => p.id) },
      w.actor,
      w.now(),
    );
    // 5,000 characters (the schema's maximum), most of them 3–4 bytes in UTF-8: ~11 KB a message, 5.5 MB for 500.
    const content = longText(5000, "Bonjour {{firstName}} 👋\n");
    expect(content).toHaveLength(5000);
    await addCampaignStep(
      w.deps.db,
      c.id,
      step({ messageType: "email", subject: "Votre étude solaire, {{firstName}} ☀", content }),
      w.now(),
    );
    await startCampaign(w.deps.db, w.queue, c.id, w.actor, w.now());
    await w.runQueue(); // the enrolment job activates all 500

    const tick = await dispatchDueSteps(w.deps.db, w.queue, w.now());
    expect(tick).toMatchObject({ due: 500, created: 500 });
    const jobs = w.queue.takeSendJobs();
    expect(jobs.flatMap(messageIdsOf)).toHaveLength(500);
    const counts = await w.deps.db.all<{ status: string; n: number }>(
      sql`SELECT status, count(*) AS n FROM messages WHERE campaign_id = ${c.id} GROUP BY status`,
    );
    expect(counts).toEqual([{ status: "queued", n: 500 }]);

    // The queue hands the consumer SEND_QUEUE_BATCH jobs at a time (max_batch_size): every batch is claimed and
    // sent, none retried.
    for (let i = 0; i < jobs.length; i += SEND_QUEUE_BATCH)
      expect(await sendMessages(jobs.slice(i, i + SEND_QUEUE_BATCH), w.deps)).toEqual(new Map());
    const rows = await w.sent(c.id);
    expect(rows).toHaveLength(500);
    expect(rows.every((r) => r.status === "sent")).toBe(true);
    const nameOf = new Map(people.map((p) => [p.id, p.firstName]));
    for (const r of rows) expect(r.content).toBe(content.replace("{{firstName}}", nameOf.get(r.contact_id)!));
    const calls = await w.sendgrid.calls();
    expect(calls).toHaveLength(500);
    const byTo = new Map(people.map((p) => [p.email, p.firstName]));
    for (const call of calls) {
      expect(call.subject).toBe(`Votre étude solaire, ${byTo.get(call.to[0])} ☀`);
      expect(call.text!.startsWith(content.replace("{{firstName}}", byTo.get(call.to[0])!))).toBe(true);
    }
    expect(measured.seen.maxValueBytes).toBeLessThanOrEqual(1_000_000);
    expect(measured.seen.maxValueBytes).toBeGreaterThan(500_000); // the INSERTs and claims were split, not tiny
    expect(measured.seen.maxSqlBytes).toBeLessThan(20_000);
  });
});
