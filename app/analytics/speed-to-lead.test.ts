import { describe, expect, it } from "vitest";
import { runLeadTriggers } from "~/campaigns/run-lead-triggers.server";
import type { SendJob } from "~/jobs/jobs";
import { sendMessages } from "~/messaging/consume-send-batch.server";
import { createOutboundMessages } from "~/messaging/create-outbound-messages.server";
import { receiveInboundSms } from "~/messaging/receive-inbound.server";
import { createTestContact, uniquePhone } from "../../tests/contact-factory";
import { createTestUser, db } from "../../tests/factories";
import { appHooks, pipeline } from "../../tests/messaging-harness";
import { countQuery, gapsQuery, getSpeedToLead } from "./get-speed-to-lead.server";
import { formatDuration } from "./speed-to-lead-card";

const SECOND = 1000;
const MINUTE = 60 * SECOND;
// A period of its own (the database is shared by the test files): a March 2019 week, daytime in Phoenix.
const DAY0 = Date.parse("2019-03-05T17:00:00Z");
const PERIOD = { from: new Date(DAY0 - 86_400_000), to: new Date(DAY0 + 7 * 86_400_000) };

/** A world on a clock we move: texts go through the real pipeline to the fake Twilio; the triggers keep the times. */
async function world() {
  const clock = { t: DAY0 };
  const now = () => new Date(clock.t);
  const { deps, queue } = await pipeline({ clock: now });
  const send = async (
    contact: { id: number; phone: string },
    by: number,
    kind: "individual" | "reply" = "individual",
  ) => {
    await createOutboundMessages(
      deps.db,
      queue,
      [
        {
          channel: "sms",
          kind,
          contactId: contact.id,
          phone: contact.phone,
          content: "Hi!",
          idempotencyKey: `stl:${crypto.randomUUID()}`,
          createdBy: by,
        },
      ],
      now(),
      appHooks,
    );
    await sendMessages(queue.takeSendJobs() as SendJob[], deps);
  };
  const reply = (contact: { phone: string }) =>
    receiveInboundSms(
      deps.db,
      queue,
      {
        sid: "SM" + crypto.randomUUID().replace(/-/g, ""),
        from: contact.phone,
        to: "+16025550100",
        body: "Yes, tell me more",
      },
      now(),
    );
  return { clock, now, deps, queue, send, reply };
}

describe("speed-to-lead figures", () => {
  it("give the median lead → first text and first reply → answer over the period, overall and per rep", async () => {
    const w = await world();
    const [ann, bob] = [await createTestUser(), await createTestUser()];
    const contact = () => createTestContact(ann.id, { state: "AZ", phone: uniquePhone(["602"]) });
    // Three leads: first texts 30 s (Ann), 90 s (Ann) and 10 min (Bob) after the lead. Median 90 s; Ann's 60 s.
    const plan: [number, number][] = [
      [30 * SECOND, ann.id],
      [90 * SECOND, ann.id],
      [10 * MINUTE, bob.id],
    ];
    const leads = [];
    for (const [i, [gap, by]] of plan.entries()) {
      w.clock.t = DAY0 + i * 3_600_000;
      const c = await contact();
      await runLeadTriggers({ db: w.deps.db, queue: w.queue }, { contactId: c.id, source: "Web", now: w.now() });
      w.clock.t += gap;
      await w.send(c, by);
      w.clock.t += MINUTE;
      await w.send(c, by); // a second text changes nothing
      leads.push(c);
    }
    // Replies answered after 2 min (Ann) and 8 min (Bob); one reply never answered (not counted). Median 5 min.
    const answered: [number, number][] = [
      [2 * MINUTE, ann.id],
      [8 * MINUTE, bob.id],
    ];
    for (const [i, [gap, by]] of answered.entries()) {
      w.clock.t = DAY0 + 86_400_000 + i * 3_600_000;
      await w.reply(leads[i]);
      w.clock.t += gap;
      await w.send(leads[i], by, "reply");
      w.clock.t += MINUTE;
      await w.reply(leads[i]); // a later reply and answer change nothing
      await w.send(leads[i], by, "reply");
    }
    w.clock.t = DAY0 + 2 * 86_400_000;
    await w.reply(leads[2]);

    expect(await getSpeedToLead(db(), PERIOD)).toEqual({
      leadToFirstText: { medianMs: 90 * SECOND, count: 3 },
      replyToAnswer: { medianMs: 5 * MINUTE, count: 2 },
    });
    expect(await getSpeedToLead(db(), { ...PERIOD, userId: ann.id })).toEqual({
      leadToFirstText: { medianMs: 60 * SECOND, count: 2 },
      replyToAnswer: { medianMs: 2 * MINUTE, count: 1 },
    });
    expect(await getSpeedToLead(db(), { ...PERIOD, userId: bob.id })).toEqual({
      leadToFirstText: { medianMs: 10 * MINUTE, count: 1 },
      replyToAnswer: { medianMs: 8 * MINUTE, count: 1 },
    });
    // Outside the period: nothing.
    expect(await getSpeedToLead(db(), { from: new Date(DAY0 - 3 * 86_400_000), to: PERIOD.from })).toEqual({
      leadToFirstText: { medianMs: null, count: 0 },
      replyToAnswer: { medianMs: null, count: 0 },
    });
  });

  it("reads contact_response_times through its partial indexes, never the messages table", async () => {
    const plan = async (q: { toSQL(): { sql: string; params: unknown[] } }) => {
      const { sql: text, params } = q.toSQL();
      const rows = await db()
        .$client.prepare(`EXPLAIN QUERY PLAN ${text}`)
        .bind(...params)
        .all<{ detail: string }>();
      return rows.results.map((r) => r.detail).join(" | ");
    };
    const cases = [
      ["leadToFirstText", undefined, /contact_response_times_lead_idx/],
      ["leadToFirstText", 7, /contact_response_times_lead_rep_idx/],
      ["replyToAnswer", undefined, /contact_response_times_reply_idx/],
      ["replyToAnswer", 7, /contact_response_times_reply_rep_idx/],
    ] as const;
    for (const [m, userId, index] of cases) {
      for (const q of [gapsQuery(db(), m, { ...PERIOD, userId }), countQuery(db(), m, { ...PERIOD, userId })]) {
        const p = await plan(q);
        expect(p, `${m} ${userId}`).toMatch(index);
        expect(p).not.toMatch(/SCAN|messages/);
      }
    }
  });

  it("formats durations for the cards", () => {
    expect([null, 45_000, 3 * MINUTE, 125 * MINUTE, 28 * 60 * MINUTE].map(formatDuration)).toEqual([
      "—",
      "45 s",
      "3 min",
      "2 h 5 min",
      "1 d 4 h",
    ]);
  });
});
