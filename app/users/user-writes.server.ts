import { eq } from "drizzle-orm";
import { logActivity } from "~/activity/log-activity.server";
import type { Db } from "~/db/client.server";
import { users, type User } from "~/db/schema";
import { AppError } from "~/lib/app-error";
import type { Actor } from "~/lib/actor";

// What the user-management operations share: the user by id (or a 404), and a change to a user logged in the same
// batch with whose account it was.

export const USER_NOT_FOUND = "User not found";

export async function mustExist(db: Db, id: number): Promise<User> {
  const user = await db.select().from(users).where(eq(users.id, id)).get();
  if (!user) throw new AppError("not_found", USER_NOT_FOUND);
  return user;
}

/** The UPDATE of one user's row and its activity entry (`details` plus the target user), for one D1 batch. */
export function loggedUserUpdate(
  db: Db,
  userId: number,
  set: Partial<Omit<User, "id">>,
  entry: { action: string; details: Record<string, unknown> },
  actor: Actor,
  now: Date,
) {
  return [
    db
      .update(users)
      .set({ ...set, updatedAt: now })
      .where(eq(users.id, userId)),
    logActivity(db, entry.action, {
      ...actor,
      now,
      details: { targetUserId: userId, ...entry.details },
    }),
  ] as const;
}
