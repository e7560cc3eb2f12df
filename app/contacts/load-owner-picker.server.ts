import { eq } from "drizzle-orm";
import type { Db } from "~/db/client.server";
import { userName } from "~/lib/names";
import { users } from "~/db/schema";

/** The active users' read (a team: small, capped); a builder, to ride in a page's batch. */
export function selectOwnerChoices(db: Db) {
  return db
    .select({ id: users.id, firstName: users.firstName, lastName: users.lastName, email: users.email })
    .from(users)
    .where(eq(users.isActive, true))
    .orderBy(users.firstName, users.lastName)
    .limit(500);
}

export type OwnerChoice = { id: number; firstName: string; lastName: string; email: string; name: string };
export const ownerChoicesFrom = (rows: Awaited<ReturnType<typeof selectOwnerChoices>>): OwnerChoice[] =>
  rows.map((u) => ({ ...u, name: userName(u) }));

/** The active users, for an owner picker or filter. */
export async function listOwnerChoices(db: Db) {
  return ownerChoicesFrom(await selectOwnerChoices(db));
}

/**
 * A contact's owner and the choices the signed-in user may pick from (decision 044, updated): every active user,
 * for a superuser on any contact, for a standard user on their own or an unowned one (a hand-off to a teammate);
 * the server enforces the same rule in setContactOwner.
 */
export async function loadOwnerPicker(
  db: Db,
  ownerUserId: number | null,
  me: { id: number; superuser: boolean },
  /** The active users, when the caller read them already (the contact page reads them in its batch). */
  known?: OwnerChoice[],
) {
  const all = known ?? (await listOwnerChoices(db));
  let owner = ownerUserId === null ? null : (all.find((u) => u.id === ownerUserId) ?? null);
  if (ownerUserId !== null && !owner) {
    const u = await db
      .select({ id: users.id, firstName: users.firstName, lastName: users.lastName, email: users.email })
      .from(users)
      .where(eq(users.id, ownerUserId))
      .get();
    owner = u ? { ...u, name: userName(u) } : null;
  }
  const mayChange = me.superuser || ownerUserId === null || ownerUserId === me.id;
  const choices = mayChange ? all : [];
  return {
    owner: owner && { id: owner.id, name: owner.name },
    choices: choices.map((u) => ({ id: u.id, name: u.name })),
    mayChange,
    me: me.id,
  };
}

export type OwnerPicker = Awaited<ReturnType<typeof loadOwnerPicker>>;
