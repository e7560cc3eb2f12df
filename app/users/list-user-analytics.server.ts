import { and, desc, eq, inArray, sql } from "drizzle-orm";
import { alias } from "drizzle-orm/sqlite-core";
import type { Db } from "~/db/client.server";
import { activityLog, loginHistory } from "~/db/schema";
import { stored } from "~/db/stored-values.server";
import { listUsers } from "./manage-users.server";
import { repReplyFigures } from "./rep-reply-figures.server";

/** Per user in GET /api/analytics/users (SPEC §3): the latest entries of each list, not the history. */
export const RECENT_ACTIVITIES = 10;
export const LOGIN_HISTORY = 10;
/** The period of each user's `repFigures` (decision 050): the last 30 days. */
export const REP_FIGURES_DAYS = 30;

const parseDetails = (text: string | null): Record<string, unknown> | null => {
  if (!text) return null;
  try {
    return JSON.parse(text) as Record<string, unknown>;
  } catch {
    return null;
  }
};

/**
 * A page of users with SPEC §3's analytics fields, `recentActivities` and `loginHistory` included. Each list is the
 * user's newest N through the (user_id, created_at) indexes — a correlated LIMIT per user, so a page reads
 * at most page × N rows of each table however long the history is.
 */
export async function listUserAnalytics(db: Db, opts: { after?: number | null; limit?: number; now?: Date }) {
  const page = await listUsers(db, opts);
  const now = opts.now ?? new Date();
  const figures = await repReplyFigures(
    db,
    page.items.map((u) => u.id),
    { from: new Date(now.getTime() - REP_FIGURES_DAYS * 86_400_000), to: now },
  );
  const ids = JSON.stringify(page.items.map((u) => u.id));
  const u = sql`json_each(${ids}) AS u`;
  const a = alias(activityLog, "a");
  const h = alias(loginHistory, "h");
  // Each user's newest N through the (user_id, created_at) indexes: a correlated LIMIT per user.
  const newestActivity = db
    .select({ id: activityLog.id })
    .from(activityLog)
    .where(eq(activityLog.userId, sql`u.value`))
    .orderBy(desc(activityLog.createdAt), desc(activityLog.id))
    .limit(RECENT_ACTIVITIES);
  const newestLogins = db
    .select({ id: loginHistory.id })
    .from(loginHistory)
    .where(and(eq(loginHistory.userId, sql`u.value`), eq(loginHistory.success, true)))
    .orderBy(desc(loginHistory.createdAt), desc(loginHistory.id))
    .limit(LOGIN_HISTORY);
  const [activity, logins] = page.items.length
    ? await db.batch([
        db
          .select({
            userId: a.userId,
            id: a.id,
            action: a.action,
            details: stored(a.details),
            ipAddress: a.ipAddress,
            createdAt: a.createdAt,
          })
          .from(u)
          .innerJoin(a, inArray(a.id, newestActivity))
          .orderBy(desc(a.createdAt), desc(a.id)),
        db
          .select({ userId: h.userId, id: h.id, ipAddress: h.ipAddress, createdAt: h.createdAt })
          .from(u)
          .innerJoin(h, inArray(h.id, newestLogins))
          .orderBy(desc(h.createdAt), desc(h.id)),
      ])
    : [[], []];
  const group = <T extends { userId: number | null }>(rows: T[]) => {
    const m = new Map<number | null, T[]>();
    for (const r of rows) m.set(r.userId, [...(m.get(r.userId) ?? []), r]);
    return m;
  };
  const activityOf = group(activity);
  const loginsOf = group(logins);
  return {
    ...page,
    items: page.items.map((u) => ({
      id: u.id,
      email: u.email,
      firstName: u.firstName,
      lastName: u.lastName,
      role: u.role,
      isActive: u.isActive,
      lastLoginAt: u.lastLoginAt,
      loginCount: u.loginCount,
      createdAt: u.createdAt,
      totalActivities: u.totalActivities,
      // Per rep (decision 050): contacts texted and texts sent by the user in the last REP_FIGURES_DAYS days.
      repFigures: { days: REP_FIGURES_DAYS, ...figures.get(u.id)! },
      recentActivities: (activityOf.get(u.id) ?? []).map((a) => ({
        id: a.id,
        action: a.action,
        createdAt: a.createdAt.toISOString(),
        ipAddress: a.ipAddress,
        details: parseDetails(a.details),
      })),
      loginHistory: (loginsOf.get(u.id) ?? []).map((l) => ({
        id: l.id,
        createdAt: l.createdAt.toISOString(),
        ipAddress: l.ipAddress,
      })),
    })),
  };
}
