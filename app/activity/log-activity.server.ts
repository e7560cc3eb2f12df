import type { Db } from "~/db/client.server";
import { activityLog } from "~/db/schema";

export type ActivityAction = "login" | "logout" | "send_message" | "create_campaign" | "create_contact" | (string & {});

export function activityRow(
  action: ActivityAction,
  opts: { userId: number | null; ipAddress?: string | null; details?: Record<string, unknown>; now: Date },
) {
  return {
    action,
    userId: opts.userId,
    ipAddress: opts.ipAddress ?? null,
    details: opts.details ?? null,
    createdAt: opts.now,
  };
}

/** Inserts one activity entry (use `activityRow` inside a batch when it must commit with other writes). */
export function logActivity(db: Db, ...args: Parameters<typeof activityRow>) {
  return db.insert(activityLog).values(activityRow(...args));
}

/**
 * A route's entry for a mutation it just made (user, client IP, a few ids — never secrets or message bodies).
 * Used where the domain function belongs to another feature and takes no actor; written after the change succeeds.
 */
export function recordActivity(
  args: { request: Request; context: { db: Db; clock: () => Date } },
  userId: number,
  action: ActivityAction,
  details?: Record<string, unknown>,
) {
  const ip = args.request.headers.get("CF-Connecting-IP");
  return logActivity(args.context.db, action, { userId, ipAddress: ip, details, now: args.context.clock() });
}
