// Smart alerts under the caps (issue 23, decision 021): every matching reply still records its alert (the bell), but
// one conversation emails each recipient at most once an hour — as it arrives and when the cron escalates it — and a
// keyword bank's auto-response counts against the number's daily auto-reply cap.
import { sql } from "drizzle-orm";
import { replyWorld } from "../../../tests/reply-world";
import { describe, expect, it } from "vitest";
import { db } from "../../../tests/factories";
import { alertRulesMadeHere, staffAlertRule } from "../../../tests/alert-rules";
import { escalateDueAlerts } from "./run-alerts.server";

const MIN = 60_000;
const DAY = new Date("2026-11-18T18:30:00Z");
const made = alertRulesMadeHere();

async function world() {
  const w = await replyWorld(DAY);
  const { word, email } = await staffAlertRule(made, DAY, {
    profile: { escalationTime: 15 },
    bank: (word) => ({ autoResponse: `We got it (${word})` }),
  });
  return { ...w, word, email };
}

describe("smart alerts under the caps", () => {
  it("five matching replies in an hour: five alerts, one email to the profile, three bank auto-responses (the daily cap)", async () => {
    const w = await world();
    for (let i = 0; i < 5; i++) await w.inbound(`${w.word} question ${i}`, new Date(DAY.getTime() + i * MIN));
    const alerts = await db().all(sql`SELECT id FROM alerts WHERE phone = ${w.contact.phone}`);
    expect(alerts).toHaveLength(5);
    expect(await db().all(sql`SELECT id FROM messages WHERE kind = 'alert' AND email = ${w.email}`)).toHaveLength(1);
    expect(
      await db().all(sql`SELECT id FROM messages WHERE phone = ${w.contact.phone} AND kind = 'auto_reply'`),
    ).toHaveLength(3);
    expect(
      await db().get(
        sql`SELECT hits FROM cap_counters WHERE channel = 'held:alert_email' AND subject = ${w.contact.phone}`,
      ),
    ).toEqual({ hits: 8 }); // four held for each recipient: the profile's staff and the contact's owner (decision 050)
    // An hour later the next one emails again.
    await w.inbound(`${w.word} later`, new Date(DAY.getTime() + 61 * MIN));
    expect(await db().all(sql`SELECT id FROM messages WHERE kind = 'alert' AND email = ${w.email}`)).toHaveLength(2);

    // Nobody acknowledged them: the cron escalates the conversation once an hour, not once per alert.
    const escalationDue = new Date(DAY.getTime() + 62 * MIN);
    const before = (await db().get<{ n: number }>(
      sql`SELECT count(*) AS n FROM messages WHERE idempotency_key LIKE 'alert-escalation:%' AND content LIKE ${`%${w.contact.phone}%`}`,
    ))!.n;
    await escalateDueAlerts({ db: db(), queue: w.queue, now: escalationDue, config: w.replies.config }, 1000);
    const after = (await db().get<{ n: number }>(
      sql`SELECT count(*) AS n FROM messages WHERE idempotency_key LIKE 'alert-escalation:%' AND content LIKE ${`%${w.contact.phone}%`}`,
    ))!.n;
    expect(after - before).toBe(1);
    expect(
      await db().all(
        sql`SELECT id FROM alerts WHERE phone = ${w.contact.phone} AND escalated_at IS NULL AND escalation_due_at <= ${escalationDue.getTime()}`,
      ),
    ).toEqual([]);
  });
});
