import { and, eq, isNull, or, sql } from "drizzle-orm";
import { logActivity } from "~/activity/log-activity.server";
import { inJson } from "~/db/bulk-update.server";
import { chunk, rowsPerInsert, runBatch, type Db } from "~/db/client.server";
import { contacts, conversationNotes, users, type Role } from "~/db/schema";
import type { Actor } from "~/lib/actor";
import { AppError } from "~/lib/app-error";
import { MAX_OWNER_CONTACTS } from "./owner-limits";

export { MAX_OWNER_CONTACTS };
export const OWNER_NOT_ALLOWED = "You can only make yourself the owner, or clear it";
export const OWNER_NOT_ACTIVE = "Choose an active user as the owner";

/** Who is setting the owner: the guard's user, whose role decides what they may choose (decision 044). */
export type OwnerActor = Actor & { role: Role };

export type SetOwnerInput = {
  contactIds: readonly number[];
  /** null: no owner. */
  ownerUserId: number | null;
  /** Why (a hand-off "setter → closer"): kept in the activity log entry. */
  note?: string | null;
};

/**
 * The one rule for choosing an owner (decision 044, updated): a superuser may choose any active user; a standard user
 * may take a contact for themselves or let it go — and, on a hand-off (`handOff`, setContactOwner), give their own or
 * an unowned contact to any active user (the setter → closer hand-off). Which contacts they may change is
 * setContactOwner's WHERE. An import's owner (no hand-off) stays "themselves or nobody".
 */
export async function assertOwnerAllowed(
  db: Db,
  owner: number | null,
  actor: OwnerActor,
  { handOff = false }: { handOff?: boolean } = {},
) {
  if (!handOff && actor.role !== "superuser" && owner !== null && owner !== actor.userId)
    throw new AppError("forbidden", OWNER_NOT_ALLOWED, { field: "ownerUserId" });
  if (owner === null) return;
  const row = await db
    .select({ id: users.id })
    .from(users)
    .where(and(eq(users.id, owner), eq(users.isActive, true)))
    .get();
  if (!row) throw new AppError("validation", OWNER_NOT_ACTIVE, { field: "ownerUserId" });
}

/**
 * Sets (or clears) the owner of one or more contacts, by hand or in bulk (decision 044). A superuser may choose any
 * active user; a standard user may take a contact, let it go or hand it to a teammate, but only contacts that are
 * theirs or nobody's — that rule is in the UPDATE's WHERE, so a forged form changes nothing it may not. One activity
 * entry records who, to whom, how many and the note; the note also shows in each changed contact's conversation as an
 * internal hand-off note (decision 047), written in the same batch.
 */
export async function setContactOwner(db: Db, input: SetOwnerInput, actor: OwnerActor, now: Date) {
  const ids = [...new Set(input.contactIds)];
  if (!ids.length) throw new AppError("validation", "Choose at least one contact");
  if (ids.length > MAX_OWNER_CONTACTS)
    throw new AppError("validation", `Choose at most ${MAX_OWNER_CONTACTS} contacts at a time`);
  const superuser = actor.role === "superuser";
  const owner = input.ownerUserId;
  await assertOwnerAllowed(db, owner, actor, { handOff: true });
  const changed = await db
    .update(contacts)
    .set({ ownerUserId: owner, updatedAt: now })
    .where(
      and(
        inJson(contacts.id, ids),
        sql`${contacts.ownerUserId} IS NOT ${owner}`,
        superuser ? undefined : or(isNull(contacts.ownerUserId), eq(contacts.ownerUserId, actor.userId)),
      ),
    )
    .returning({ id: contacts.id });
  const note = input.note?.trim() || null;
  // Six columns a row: D1's 100 parameters give 16 rows per INSERT, all in the one batch with the activity entry.
  const handoffNotes = note
    ? chunk(changed, rowsPerInsert(6)).map((part) =>
        db.insert(conversationNotes).values(
          part.map((r) => ({
            kind: "handoff" as const,
            contactId: r.id,
            authorUserId: actor.userId,
            handoffTo: owner,
            body: note,
            createdAt: now,
          })),
        ),
      )
    : [];
  const log = logActivity(db, "set_contact_owner", {
    ...actor,
    now,
    details: {
      ownerUserId: owner,
      changed: changed.length,
      contactIds: changed.slice(0, 20).map((r) => r.id),
      ...(note ? { note } : {}),
    },
  });
  await runBatch(db, [log, ...handoffNotes]);
  return { changed: changed.length, unchanged: ids.length - changed.length };
}

/** The statement that hands every contact of one user to another (deactivation, decision 044): one index seek. */
export function handOffContactsStatement(db: Db, fromUserId: number, toUserId: number, now: Date) {
  return db.update(contacts).set({ ownerUserId: toUserId, updatedAt: now }).where(eq(contacts.ownerUserId, fromUserId));
}

/** Whether the user owns any contact (one index seek): deactivation then needs someone to hand them to. */
export async function ownsContacts(db: Db, userId: number) {
  const row = await db
    .select({ id: contacts.id })
    .from(contacts)
    .where(eq(contacts.ownerUserId, userId))
    .limit(1)
    .get();
  return Boolean(row);
}
