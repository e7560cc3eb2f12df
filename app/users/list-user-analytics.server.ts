import type { Db } from "~/db/client.server";
import { listUsers } from "./manage-users.server";

/** Per user in GET /api/analytics/users (SPEC §3): the latest entries of each list, not the history. */
export const RECENT_ACTIVITIES = 10;
export const LOGIN_HISTORY = 10;

type ActivityRow = { user_id: number; id: number; action: string; details: string | null; ip_address: string | null; created_at: number };
type LoginRow = { user_id: number; id: number; ip_address: string | null; created_at: number };

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
export async function listUserAnalytics(db: Db, opts: { after: number | null; limit?: number }) {
  const page = await listUsers(db, opts);
  const ids = JSON.stringify(page.users.map((u) => u.id));
  const [activity, logins] = page.users.length
    ? await db.$client.batch([
        db.$client
          .prepare(
            `SELECT a.user_id, a.id, a.action, a.details, a.ip_address, a.created_at FROM json_each(?1) AS u
             JOIN activity_log AS a ON a.id IN (SELECT id FROM activity_log WHERE user_id = u.value ORDER BY created_at DESC, id DESC LIMIT ?2)
             ORDER BY a.created_at DESC, a.id DESC`,
          )
          .bind(ids, RECENT_ACTIVITIES),
        db.$client
          .prepare(
            `SELECT h.user_id, h.id, h.ip_address, h.created_at FROM json_each(?1) AS u
             JOIN login_history AS h ON h.id IN (SELECT id FROM login_history WHERE user_id = u.value AND success = 1 ORDER BY created_at DESC, id DESC LIMIT ?2)
             ORDER BY h.created_at DESC, h.id DESC`,
          )
          .bind(ids, LOGIN_HISTORY),
      ])
    : [{ results: [] }, { results: [] }];
  const group = <T extends { user_id: number }>(rows: T[]) => {
    const m = new Map<number, T[]>();
    for (const r of rows) m.set(r.user_id, [...(m.get(r.user_id) ?? []), r]);
    return m;
  };
  const activityOf = group(activity.results as ActivityRow[]);
  const loginsOf = group(logins.results as LoginRow[]);
  const iso = (ms: number) => new Date(ms).toISOString();
  return {
    ...page,
    users: page.users.map((u) => ({
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
      recentActivities: (activityOf.get(u.id) ?? []).map((a) => ({
        id: a.id,
        action: a.action,
        createdAt: iso(a.created_at),
        ipAddress: a.ip_address,
        details: parseDetails(a.details),
      })),
      loginHistory: (loginsOf.get(u.id) ?? []).map((l) => ({ id: l.id, createdAt: iso(l.created_at), ipAddress: l.ip_address })),
    })),
  };
}
