import { sql } from "drizzle-orm";
import { replyWorld } from "../../tests/reply-world";
import { describe, expect, it } from "vitest";
import { getAnalytics } from "~/analytics/get-analytics.server";
import { getStats } from "~/campaigns/get-stats.server";
import { listConversations } from "~/conversations/list-conversations.server";
import { campaigns } from "~/db/schema";
import { alertRulesMadeHere, staffAlertRule } from "../../tests/alert-rules";
import { uniqueTag } from "../../tests/contact-factory";
import { db, SEES_ALL } from "../../tests/factories";
import { DAYTIME, queueMessage } from "../../tests/messaging-harness";
import { sendMessages } from "./consume-send-batch.server";
import { listMessages, messageTabCounts } from "../message-center/list-messages.server";
import { ALL_OPEN } from "../../tests/conversation-queue";

// Issue 24, item 7: staff alert emails (kind 'alert') are our mail to the team. They were Message Center rows,
// "conversations", Recent Message Activity and "Messages Sent"; Smart Alerts keeps their history (the alerts table).
const made = alertRulesMadeHere();
const day = DAYTIME.toISOString().slice(0, 10);
const dailyOutbound = async () =>
  (await db().get<{ n: number }>(
    sql`SELECT coalesce(sum(n), 0) AS n FROM message_daily_counts WHERE day = ${day} AND direction = 'outbound'`,
  ))!.n;

async function world() {
  const w = await replyWorld(DAYTIME, { contact: { lastName: "Diaz" } });
  const inbound = async (body: string) => (await w.inbound(body)).messageId!;
  return { ...w, inbound };
}

describe("staff alert emails are not customer messages (issue 24, item 7)", () => {
  it("an alert email sent to staff is no Message Center row, search hit, conversation, recent activity or Messages Sent", async () => {
    const w = await world();
    const { word, email } = await staffAlertRule(made, DAYTIME);

    const [statsBefore, tabsBefore, dailyBefore] = [
      await getStats(db()),
      await messageTabCounts(db()),
      await dailyOutbound(),
    ];
    const inboundId = await w.inbound(`What does ${word} cost?`);
    await sendMessages(w.queue.takeSendJobs(), w.deps);
    const alertRows = await db().all<{ id: number; status: string }>(
      sql`SELECT id, status FROM messages WHERE kind = 'alert' AND email = ${email}`,
    );
    expect(alertRows.map((r) => r.status)).toEqual(["sent"]); // the email went out

    // Figures: the inbound is a response; the staff email is not a message sent.
    const statsAfter = await getStats(db());
    expect(statsAfter.messagesSent - statsBefore.messagesSent).toBe(0);
    expect(statsAfter.responses - statsBefore.responses).toBe(1);
    expect((await messageTabCounts(db())).outgoing - tabsBefore.outgoing).toBe(0);
    expect((await dailyOutbound()) - dailyBefore).toBe(0);

    // Views: the Message Center (list and search), conversations and the Analytics screen's recent activity.
    const listed = (await listMessages(db(), { viewer: SEES_ALL, limit: 500 })).messages;
    expect(listed.some((m) => m.id === alertRows[0].id)).toBe(false);
    expect(listed.some((m) => m.id === inboundId)).toBe(true);
    const found = (await listMessages(db(), { viewer: SEES_ALL, q: word })).messages;
    expect(found.map((m) => m.id)).toEqual([inboundId]);
    const conversations = (await listConversations(db(), { ...ALL_OPEN, limit: 100 })).conversations;
    expect(conversations.some((c) => c.email === email)).toBe(false);
    const analytics = await getAnalytics(db(), {}, DAYTIME, 7, SEES_ALL);
    expect(analytics.recent.some((r) => r.to === email)).toBe(false);
    expect(analytics.recent[0].id).toBe(inboundId);
  });

  it("a campaign's response rate counts a contact answering a text once, however many replies follow (one campaign showed 500%)", async () => {
    const w = await world();
    const [campaign] = await db()
      .insert(campaigns)
      .values({ name: `Rate ${uniqueTag("c")}`, status: "running" })
      .returning();
    // A campaign text to Rosa, as the campaign's step would write it.
    const campaignText = (content: string, key: string) =>
      queueMessage(
        { db: db() },
        w.queue,
        {
          kind: "campaign",
          phone: w.contact.phone,
          contactId: w.contact.id,
          campaignId: campaign.id,
          content,
          idempotencyKey: uniqueTag(key),
        },
        DAYTIME,
      );
    await campaignText("Hi Rosa, still thinking about solar?", "c1");
    await sendMessages(w.queue.takeSendJobs(), w.deps);
    const count = async () =>
      (await db().get<{ sent: number; responses: number }>(
        sql`SELECT sent_count AS sent, response_count AS responses FROM campaigns WHERE id = ${campaign.id}`,
      ))!;
    expect((await count()).sent).toBe(1);
    for (const body of ["Yes", "How much?", "Call me", "Tomorrow works", "Thanks"]) await w.inbound(body);
    expect(await count()).toEqual({ sent: 1, responses: 1 });

    // A second campaign text, answered: a second response.
    await campaignText("Following up, Rosa", "c2");
    await sendMessages(w.queue.takeSendJobs(), w.deps);
    await w.inbound("Ok");
    await w.inbound("And another thing");
    expect(await count()).toEqual({ sent: 2, responses: 2 });
  });
});
