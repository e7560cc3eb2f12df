import { and, eq, isNull, sql, type SQL } from "drizzle-orm";
import { inJson } from "~/db/bulk-update.server";
import { runBatch, type Db } from "~/db/client.server";
import { assignmentCursor, contacts, messages, users } from "~/db/schema";

// Round-robin assignment of new leads (issue 27, decision 044). An inbound processor registered by app/wiring: the
// pipeline does not know it. A reply from a contact with no owner gives the contact the next available user.

/** Users who take new leads: active and marked available. */
const AVAILABLE = sql`${users.isActive} = 1 AND ${users.availableForLeads} = 1`;
const anyAvailable = sql`EXISTS (SELECT 1 FROM ${users} WHERE ${AVAILABLE})`;

/**
 * One contact's turn, as one D1 batch (a transaction): the cursor moves to the next available user after the last
 * one (wrapping to the first) only while the contact is still unowned, then the contact takes the cursor's user. A
 * redelivered job or a second reply finds the contact owned and moves nothing, so no turn is lost or given twice.
 */
function claimTurnStatements(db: Db, contactId: number, now: Date) {
  const unowned = sql`EXISTS (SELECT 1 FROM ${contacts} WHERE ${contacts.id} = ${contactId} AND ${contacts.ownerUserId} IS NULL)`;
  const nextAfter = (after: SQL) =>
    sql`(SELECT min(${users.id}) FROM ${users} WHERE ${AVAILABLE} AND ${users.id} > ${after})`;
  return [
    db
      .update(assignmentCursor)
      .set({
        lastUserId: sql`coalesce(${nextAfter(sql`${assignmentCursor.lastUserId}`)}, ${nextAfter(sql`0`)})`,
        updatedAt: now,
      })
      .where(and(eq(assignmentCursor.id, 1), unowned, anyAvailable)),
    db
      .update(contacts)
      .set({
        ownerUserId: sql`(SELECT ${assignmentCursor.lastUserId} FROM ${assignmentCursor} WHERE ${assignmentCursor.id} = 1)`,
        updatedAt: now,
      })
      .where(and(eq(contacts.id, contactId), isNull(contacts.ownerUserId), anyAvailable))
      .returning({ id: contacts.id, ownerUserId: contacts.ownerUserId }),
  ] as const;
}

/**
 * Gives each unowned contact among these inbound messages the next available user. Idempotent on the ids. Reads
 * the messages and their contacts by primary key; a contact without a match (a bare number) stays unassigned.
 */
export async function assignNewLeads(db: Db, messageIds: readonly number[], now: Date) {
  if (!messageIds.length) return [];
  const unowned = await db
    .selectDistinct({ contactId: contacts.id })
    .from(messages)
    .innerJoin(contacts, eq(contacts.id, messages.contactId))
    .where(and(inJson(messages.id, messageIds), eq(messages.direction, "inbound"), isNull(contacts.ownerUserId)));
  const assigned: { contactId: number; ownerUserId: number }[] = [];
  for (const { contactId } of unowned) {
    const [, set] = (await runBatch(db, claimTurnStatements(db, contactId, now))) as [
      unknown,
      { id: number; ownerUserId: number | null }[],
    ];
    const row = set[0];
    if (row?.ownerUserId != null) assigned.push({ contactId: row.id, ownerUserId: row.ownerUserId });
  }
  return assigned;
}
