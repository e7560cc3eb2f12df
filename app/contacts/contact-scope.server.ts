import { eq, isNull, or, type SQL } from "drizzle-orm";
import { logActivity } from "~/activity/log-activity.server";
import { runBatch, type Db } from "~/db/client.server";
import { readOrgFlag, orgFlagStatement } from "~/db/org-flag.server";
import { contacts, users, type Role } from "~/db/schema";
import type { Actor } from "~/lib/actor";

/**
 * Which contacts a person sees and works (issue 27 item 6, decision 048): a standard user their own and the
 * unowned ones, a superuser all; the organisation setting "Every user sees all contacts" gives everyone all.
 * Every read and write of a contact on behalf of a person goes through this module; out of scope is "not found".
 */
export type ContactScope = { kind: "all" } | { kind: "own-or-unassigned"; userId: number };

/** Who is asking: the guard's user (a session, or an API key acting as its owner — decision 035). */
export type ContactViewer = { userId: number; role: Role };

/** The viewer of a signed-in user (a session or an API key's owner). */
export const viewerOf = (user: { id: number; role: Role }): ContactViewer => ({ userId: user.id, role: user.role });

/**
 * The owner of a contact a person adds by hand: a rep's door-knock is theirs (left unowned, its first reply would go
 * round-robin to another rep and vanish from the rep's own list); a superuser's stays unowned for round-robin.
 */
export const ownerOfNewContact = (viewer: ContactViewer): number | null =>
  viewer.role === "superuser" ? null : viewer.userId;

/** The org_settings key of "Every user sees all contacts" ("1" = on; absent = off, the default). */
export const EVERY_USER_SEES_ALL_KEY = "everyUserSeesAllContacts";

/** The rule itself, without I/O. */
export function contactScope(viewer: ContactViewer, settings: { everyUserSeesAll: boolean }): ContactScope {
  if (viewer.role === "superuser" || settings.everyUserSeesAll) return { kind: "all" };
  return { kind: "own-or-unassigned", userId: viewer.userId };
}

/** The setting (one primary-key read). */
export function everyUserSeesAllContacts(db: Db): Promise<boolean> {
  return readOrgFlag(db, EVERY_USER_SEES_ALL_KEY);
}

/** The viewer's scope; a superuser's needs no read. */
export async function loadContactScope(db: Db, viewer: ContactViewer): Promise<ContactScope> {
  if (viewer.role === "superuser") return { kind: "all" };
  return contactScope(viewer, { everyUserSeesAll: await everyUserSeesAllContacts(db) });
}

/**
 * The scope of a user named by id, for work done later on their behalf (an import's chunks, a campaign's "all
 * matching" audience): their role read by primary key. All when no such user is on record any more.
 */
export async function loadUserContactScope(db: Db, userId: number | null): Promise<ContactScope> {
  if (userId === null) return { kind: "all" };
  const user = await db.select({ role: users.role }).from(users).where(eq(users.id, userId)).get();
  return user ? loadContactScope(db, { userId, role: user.role }) : { kind: "all" };
}

/** Whether the viewer sees every contact (the conversations queue's `seeAll`). */
export async function seesAllContacts(viewer: ContactViewer, db: Db): Promise<boolean> {
  return (await loadContactScope(db, viewer)).kind === "all";
}

/** The scope as a WHERE term on `contacts` (undefined: all). */
export function scopeCondition(scope: ContactScope): SQL | undefined {
  if (scope.kind === "all") return undefined;
  return or(isNull(contacts.ownerUserId), eq(contacts.ownerUserId, scope.userId));
}

/** Whether one contact row is in scope. */
export function inScope(scope: ContactScope, contact: { ownerUserId: number | null }): boolean {
  return scope.kind === "all" || contact.ownerUserId === null || contact.ownerUserId === scope.userId;
}

/** Turns the setting on or off (superusers; the route guards the role), logged. */
export async function setEveryUserSeesAllContacts(db: Db, on: boolean, actor: Actor, now: Date) {
  await runBatch(db, [
    orgFlagStatement(db, EVERY_USER_SEES_ALL_KEY, on, now),
    logActivity(db, "set_contact_visibility", { ...actor, now, details: { everyUserSeesAll: on } }),
  ]);
}
