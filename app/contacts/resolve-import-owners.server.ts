import { eq } from "drizzle-orm";
import type { Db } from "~/db/client.server";
import { users, type Role } from "~/db/schema";
import type { OwnerResolver } from "./csv-import";
import { OWNER_NOT_ALLOWED } from "./set-contact-owner.server";

/** The most active users one import resolves owners among (a sales team; far more is not a team this screen serves). */
export const MAX_OWNER_USERS = 5000;

const nameKey = (s: string) => s.trim().replace(/\s+/g, " ").toLowerCase();

/**
 * How an import reads its Owner column (issue 27 item 1, decision 050): the active users read ONCE per import, then
 * each row's cell resolved in memory — an email (any case), or a full name when exactly one active user has it.
 * Decision 044's rule: a standard user may name only themselves; a superuser any active user. Every other value is
 * the row's error, so the preview lists it with the row number (nothing is dropped silently). No role = standard.
 */
export async function importOwnerResolver(db: Db, actor: { userId: number; role?: Role }): Promise<OwnerResolver> {
  const active = await db
    .select({ id: users.id, email: users.email, firstName: users.firstName, lastName: users.lastName })
    .from(users)
    .where(eq(users.isActive, true))
    .limit(MAX_OWNER_USERS);
  const byEmail = new Map(active.map((u) => [u.email.toLowerCase(), u.id]));
  const byName = new Map<string, number | "ambiguous">();
  for (const u of active) {
    const key = nameKey(`${u.firstName} ${u.lastName}`);
    if (key) byName.set(key, byName.has(key) ? "ambiguous" : u.id);
  }
  return (value) => {
    const found = byEmail.get(value.trim().toLowerCase()) ?? byName.get(nameKey(value));
    if (found === "ambiguous") return { error: `Owner "${value}" matches more than one user; use their email` };
    if (found === undefined) return { error: `Owner "${value}" is not an active user` };
    if (actor.role !== "superuser" && found !== actor.userId)
      return { error: `Owner "${value}": ${OWNER_NOT_ALLOWED}` };
    return { ownerUserId: found };
  };
}
