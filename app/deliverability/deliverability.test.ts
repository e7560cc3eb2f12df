import { eq, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { senderPacing } from "~/db/schema";
import { sendMessages } from "~/messaging/consume-send-batch.server";
import { recordStatusUpdates } from "~/messaging/record-status.server";
import { senderPausedNote } from "~/messaging/sender-pause";
import { pipelineHooks } from "~/wiring/pipeline-hooks.server";
import { createTestUser, db } from "../../tests/factories";
import { DAYTIME, messageRow, pipeline, queueMessage, testTexts } from "../../tests/messaging-harness";
import { plan } from "../../tests/query-plan";
import { createOutboundMessages } from "~/messaging/create-outbound-messages.server";
import { DEFAULT_PAUSE_THRESHOLD, FILTERING_CODES, PAUSE_AT_FILTERED } from "./carrier-filtering";
import { loadPauseThreshold, savePauseThreshold } from "./pause-threshold.server";
import { listSendingNumberHealth } from "./list-sending-number-health.server";
import { resumeSendingNumber } from "./resume-sending-number.server";
import { countFiltered, filteredSendersOf } from "./watch-carrier-filtering.server";

const ALERTS = { alertEmail: "ops@helio.test", publicBaseUrl: "https://helio.test" };
const hooks = pipelineHooks(null, ALERTS);

/** A pipeline whose final failures run the root's hooks with an alert address, and `n` texts sent from its number. */
async function sentTexts(n: number) {
  const p = await pipeline({ clock: () => DAYTIME });
  p.deps.hooks = hooks;
  const ids = await createOutboundMessages(p.deps.db, p.queue, testTexts(n, "Offer"), DAYTIME);
  await sendMessages(p.queue.takeSendJobs(), p.deps);
  const sids: string[] = [];
  for (const id of ids) sids.push((await messageRow(id))!.twilio_sid);
  const from = (await messageRow(ids[0]))!.from_address as string;
  const report = (some: string[], errorCode: string) =>
    recordStatusUpdates(
      db(),
      some.map((sid) => ({ sid, status: "undelivered", errorCode, errorMessage: "Filtered" })),
      DAYTIME,
      { hooks, queue: p.queue },
    );
  return { ...p, ids, sids, from, report };
}

const pacingOf = (sender: string) => db().select().from(senderPacing).where(eq(senderPacing.sender, sender)).get();
const alertsTo = (sender: string) =>
  db().all<{ subject: string; content: string }>(
    sql`SELECT subject, content FROM messages WHERE kind = 'alert' AND email = ${ALERTS.alertEmail}
        AND subject LIKE ${`%${sender}%`}`,
  );

describe("deliverability autopilot (decision 065)", () => {
  it("the organisation's thresholds decide: 3 filtered texts pause a number; 0 never pauses", async () => {
    const admin = await createTestUser({ role: "superuser" });
    const actor = { userId: admin.id, ipAddress: null };
    try {
      await savePauseThreshold(db(), { filtered: 3, percent: 0.5 }, actor, DAYTIME);
      expect(await loadPauseThreshold(db())).toEqual({ filtered: 3, percent: 0.5 });
      const w = await sentTexts(12);
      await w.report(w.sids.slice(0, 2), "30007");
      expect((await pacingOf(w.from))?.marketingPausedAt).toBeNull();
      await w.report(w.sids.slice(2, 3), "30007");
      expect((await pacingOf(w.from))?.marketingPausedReason).toContain("Carriers filtered 3 of the 12 texts");

      await savePauseThreshold(db(), { filtered: 0, percent: 2 }, actor, DAYTIME);
      const off = await sentTexts(12);
      await off.report(off.sids, "30007");
      expect((await pacingOf(off.from))?.marketingPausedAt ?? null).toBeNull();
      expect(
        await db().all(
          sql`SELECT 1 FROM activity_log WHERE action = 'set_autopilot_threshold' AND user_id = ${admin.id}`,
        ),
      ).toHaveLength(2);
    } finally {
      await savePauseThreshold(db(), DEFAULT_PAUSE_THRESHOLD, actor, DAYTIME);
    }
  });

  it("carrier filtering past the threshold pauses the number's marketing once, logs it and emails the alert address; a replayed callback tells nobody again", async () => {
    const w = await sentTexts(12);
    await w.report(w.sids.slice(0, PAUSE_AT_FILTERED - 1), "30007");
    expect((await pacingOf(w.from))?.marketingPausedAt).toBeNull();
    await w.report(w.sids.slice(PAUSE_AT_FILTERED - 1, PAUSE_AT_FILTERED), "30034");
    const paused = await pacingOf(w.from);
    expect(paused?.marketingPausedAt?.getTime()).toBe(DAYTIME.getTime());
    expect(paused?.marketingPausedReason).toContain(`Carriers filtered 10 of the 12 texts ${w.from} sent today`);
    const alerts = await alertsTo(w.from);
    expect(alerts).toHaveLength(1);
    expect(alerts[0].content).toContain("https://helio.test/compliance#sending-numbers");
    const logged = await db().all(
      sql`SELECT 1 FROM activity_log WHERE action = 'sending_number_paused' AND json_extract(details, '$.sender') = ${w.from}`,
    );
    expect(logged).toHaveLength(1);

    await w.report(w.sids, "30007"); // Twilio retries every callback, and two more come in
    expect(await alertsTo(w.from)).toHaveLength(1);
  });

  it("a paused number holds campaign, broadcast and quick-send texts and still sends a rep's own text and an appointment's; resuming sends the held ones", async () => {
    const w = await sentTexts(10);
    await w.report(w.sids, "30007");
    expect((await pacingOf(w.from))?.marketingPausedAt).not.toBeNull();
    const before = (await w.twilio.calls()).length;
    const broadcast = await queueMessage(w.deps, w.queue, { kind: "broadcast", content: "Spring offer" }, DAYTIME);
    const quick = await queueMessage(w.deps, w.queue, { kind: "quick", content: "Solar savings" }, DAYTIME, hooks);
    const own = await queueMessage(w.deps, w.queue, { kind: "individual", content: "Hi, it's Sam" }, DAYTIME, hooks);
    const reminder = await queueMessage(w.deps, w.queue, { kind: "appointment", content: "See you at 3" }, DAYTIME);
    await sendMessages(w.queue.takeSendJobs(), w.deps);
    for (const id of [broadcast, quick])
      expect(await messageRow(id)).toMatchObject({ status: "held", error_message: senderPausedNote(w.from) });
    for (const id of [own, reminder]) expect((await messageRow(id))?.status).toBe("sent");
    expect((await w.twilio.calls()).length - before).toBe(2);

    const user = await createTestUser({ role: "superuser" });
    const out = await resumeSendingNumber({ db: db(), queue: w.queue, now: DAYTIME }, w.from, {
      userId: user.id,
      ipAddress: null,
    });
    expect(out).toEqual({ released: 2, more: false });
    expect((await pacingOf(w.from))?.marketingPausedAt).toBeNull();
    await sendMessages(w.queue.takeSendJobs(), w.deps);
    for (const id of [broadcast, quick]) expect((await messageRow(id))?.status).toBe("sent");
    await expect(
      resumeSendingNumber({ db: db(), queue: w.queue, now: DAYTIME }, w.from, { userId: user.id, ipAddress: null }),
    ).rejects.toMatchObject({ code: "not_found" });
  });

  it("nothing pauses under the share of the day's texts, nor for failures about the recipient (30005), nor for email", async () => {
    const w = await sentTexts(12);
    // The number sent 1,000 texts today: 10 filtered are 1%, under the 2% line (20 would pause it).
    await db().update(senderPacing).set({ dayCount: 1000 }).where(eq(senderPacing.sender, w.from));
    await w.report(w.sids.slice(0, 10), "30007");
    expect((await pacingOf(w.from))?.marketingPausedAt).toBeNull();
    const other = await sentTexts(12);
    await other.report(other.sids, "30005");
    expect((await pacingOf(other.from))?.marketingPausedAt).toBeNull();
    const health = await listSendingNumberHealth(db(), DAYTIME);
    expect(health.find((h) => h.sender === w.from)).toMatchObject({ sentToday: 1000, filteredToday: 10 });
    expect(health.find((h) => h.sender === other.from)).toMatchObject({ filteredToday: 0, pausedAt: null });
  });

  it("counts a number's filtered texts by messages_filtered_sender_idx — those rows only, never its history", async () => {
    const p = await plan(countFiltered(db(), "+15005550006", DAYTIME, 10).getSQL());
    expect(p).toMatch(
      /SEARCH messages USING (COVERING )?INDEX messages_filtered_sender_idx \(from_address=\? AND updated_at>\?\)/,
    );
    expect(p).not.toMatch(/SCAN messages\b/);
  });

  it("finds the failures' numbers by their primary keys — never a scan of messages or of the filtered index", async () => {
    const p = await plan(filteredSendersOf(db(), [1, 2, 3]).getSQL());
    expect(p).toMatch(/SEARCH messages USING INTEGER PRIMARY KEY \(rowid=\?\)/);
    expect(p).not.toMatch(/SCAN messages\b|messages_filtered_sender_idx/);
  });

  it("the index holds exactly the codes the autopilot counts", async () => {
    const index = await db().get<{ sql: string }>(
      sql`SELECT sql FROM sqlite_master WHERE name = 'messages_filtered_sender_idx'`,
    );
    const codes = [...index!.sql.matchAll(/'(\d+)'/g)].map((m) => m[1]);
    expect(codes.sort()).toEqual([...FILTERING_CODES].sort());
  });
});
