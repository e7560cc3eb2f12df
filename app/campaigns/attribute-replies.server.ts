import { sql } from "drizzle-orm";
import { runBatch, type Db } from "~/db/client.server";

/**
 * An inbound processor (registered first, in app/wiring): attributes each ordinary reply to the campaign that last
 * texted the number within 30 days and counts it in the campaign's responses, once per reply.
 */
export async function attributeReplies(db: Db, messageIds: number[], now: Date) {
  const since = now.getTime() - 30 * 24 * 3600_000;
  const ids = JSON.stringify(messageIds);
  // The number's last 30 days only: ids grow with time, so the first id of the window (one probe of
  // messages_created_at_idx) bounds the walk back through the number's messages, which otherwise went through all of
  // its history whenever no campaign had texted it lately (issue 22).
  const windowStart = sql`coalesce((SELECT id FROM messages WHERE created_at >= ${since} ORDER BY created_at, id LIMIT 1), 0)`;
  const lastCampaign = sql`(SELECT o.campaign_id FROM messages o
      WHERE o.phone = i.phone AND o.id >= ${windowStart} AND o.direction = 'outbound' AND o.campaign_id IS NOT NULL AND o.created_at >= ${since}
      ORDER BY o.id DESC LIMIT 1)`;
  // A response is a contact answering a campaign text: five replies to one text are one response (a campaign showed
  // 500%). So a reply counts only when no earlier reply from the number since that campaign's last text to it was
  // attributed to the campaign (or is in this same batch) — a walk of messages_phone_thread_idx between the two.
  const lastCampaignText = sql`(SELECT o.id FROM messages o
      WHERE o.phone = i.phone AND o.id >= ${windowStart} AND o.direction = 'outbound' AND o.campaign_id IS NOT NULL AND o.created_at >= ${since}
      ORDER BY o.id DESC LIMIT 1)`;
  const firstReply = sql`NOT EXISTS (SELECT 1 FROM messages p
      WHERE p.phone = i.phone AND p.id > ${lastCampaignText} AND p.id < i.id AND p.direction = 'inbound'
        AND (p.campaign_id = ${lastCampaign} OR p.id IN (SELECT value FROM json_each(${ids}))))`;
  // One transaction: count, then stamp campaign_id, so a redelivered job (campaign_id already set) counts nothing.
  await runBatch(db, [
    // raw-sql: update-from
    db.run(sql`
      UPDATE campaigns SET response_count = response_count + r.n
      FROM (SELECT campaign_id, count(*) AS n FROM (
              SELECT ${lastCampaign} AS campaign_id FROM messages i
              WHERE i.id IN (SELECT value FROM json_each(${ids})) AND i.direction = 'inbound' AND i.campaign_id IS NULL AND ${firstReply})
            WHERE campaign_id IS NOT NULL GROUP BY campaign_id) AS r
      WHERE campaigns.id = r.campaign_id`),
    // raw-sql: update-from
    db.run(sql`
      UPDATE messages AS i SET campaign_id = ${lastCampaign}
      WHERE i.id IN (SELECT value FROM json_each(${ids})) AND i.direction = 'inbound' AND i.campaign_id IS NULL`),
  ]);
}
