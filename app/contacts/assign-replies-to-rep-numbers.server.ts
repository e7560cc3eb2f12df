import { and, eq, isNotNull, sql } from "drizzle-orm";
import { bulkUpdateStatements, inJson } from "~/db/bulk-update.server";
import { runBatch, type Db } from "~/db/client.server";
import { contacts, messages, users } from "~/db/schema";

// Replies to a rep's own number land in that rep's queue (issue 27 item 3, decision 045). An inbound processor
// registered by app/wiring before round-robin (decision 044), so round-robin only deals with replies to shared numbers.

/** The inbound messages among these ids that came in on a user's own number, with that user (plan-tested). */
export function selectRepliesToRepNumbers(db: Db, messageIds: readonly number[]) {
  return db
    .select({
      contactId: sql<number>`${messages.contactId}`,
      userId: sql<number | null>`CASE WHEN ${users.isActive} = 1 THEN ${users.id} END`,
      sender: sql<string>`${users.smsSender}`,
    })
    .from(messages)
    .innerJoin(users, eq(users.smsSender, messages.fromAddress))
    .where(and(inJson(messages.id, messageIds), eq(messages.direction, "inbound"), isNotNull(messages.contactId)))
    .orderBy(messages.id);
}

/**
 * For each inbound message sent to a user's own number (`messages.from_address` is the `To` it came in on): an
 * unowned contact takes that user as owner (an active one: a deactivated rep's number is nobody's queue), and a
 * contact with no sticky sender keeps that number (the one it knows). One read of the messages by id with a seek
 * of users_sms_sender_uq each, one write of the contacts by id. Idempotent: only empty fields are filled.
 */
export async function assignRepliesToRepNumbers(db: Db, messageIds: readonly number[], now: Date) {
  if (!messageIds.length) return [];
  const hits = await selectRepliesToRepNumbers(db, messageIds);
  if (!hits.length) return [];
  // The first message per contact decides (the oldest id of the batch).
  const first = [...new Map(hits.reverse().map((h) => [h.contactId, h])).values()];
  const t = now.getTime();
  const updated = (await runBatch(
    db,
    bulkUpdateStatements(contacts, first, (j) => ({
      set: {
        ownerUserId: sql`coalesce(${contacts.ownerUserId}, ${j.userId})`,
        smsSender: sql`coalesce(${contacts.smsSender}, ${j.sender})`,
        updatedAt: t,
      },
      where: sql`${contacts.id} = ${j.contactId} AND (${contacts.ownerUserId} IS NULL OR ${contacts.smsSender} IS NULL)`,
      returning: sql`${contacts.id} AS contactId, ${contacts.ownerUserId} AS ownerUserId`,
    })).map((q) => db.all<{ contactId: number; ownerUserId: number | null }>(q)),
  )) as { contactId: number; ownerUserId: number | null }[][];
  return updated.flat();
}
