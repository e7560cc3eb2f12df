import { sql } from "drizzle-orm";
import type { Db } from "~/db/client.server";

/**
 * Login attempts are reserved before the password is verified: one conditional INSERT counts the attempt (as a
 * pending failure) only if the throttle allows it, so concurrent guesses cannot all pass the check before any of
 * them is recorded (D1 runs one statement at a time). The row becomes the attempt's history entry afterwards.
 *
 * Two budgets (docs/decisions/002-sessions-and-auth.md, OWASP device cookies):
 * - unknown clients (no valid device cookie for the account): ≤ 100 failures/hour per account, and exponential
 *   back-off after 5 consecutive failures;
 * - a client with a valid device cookie: its own ≤ 5 failures/hour per device; past that it is an unknown client.
 *
 * The network (IP) budget never locks a network out (decision 023): once an IP has 100 unknown-client failures in
 * the hour it is a "busy network", and from it each account may fail only BUSY_NETWORK_FAILURES_PER_ACCOUNT times
 * per hour (instead of the account's 5-then-back-off). An account's first attempts from a busy network are still
 * verified, so a colleague's right password is not refused because someone else on the same NAT guessed wrong,
 * while guessing from that IP is bounded by the number of accounts × 3 per hour, not by the attacker's speed.
 */
export const MAX_FAILURES_PER_HOUR_ACCOUNT = 100;
export const MAX_FAILURES_PER_HOUR_IP = 100;
export const BUSY_NETWORK_FAILURES_PER_ACCOUNT = 3;
export const BACKOFF_AFTER_FAILURES = 5;
export const DEVICE_MAX_FAILURES_PER_HOUR = 5;
export const BACKOFF_BASE_MS = 30_000;
export const BACKOFF_MAX_MS = 15 * 60_000;
export const HOUR_MS = 60 * 60_000;

export type AttemptInput = {
  email: string;
  ipAddress: string | null;
  userAgent: string | null;
  deviceId: string | null;
};
export type Reservation = { id: number; deviceId: string | null };

/** The IP's unknown-client failures in the hour, counted up to the budget only (an attack does not make it slower). */
export const ipFailures = (ip: string, since: number) =>
  sql`(SELECT count(*) FROM (SELECT 1 FROM login_history WHERE ip_address = ${ip} AND success = 0 AND device_id IS NULL AND created_at >= ${since} LIMIT ${MAX_FAILURES_PER_HOUR_IP}))`;

export async function reserveLoginAttempt(db: Db, a: AttemptInput, now: Date): Promise<Reservation | null> {
  const t = now.getTime();
  const hourAgo = t - HOUR_MS;
  const insert = (deviceId: string | null) =>
    // raw-sql: guarded-insert
    sql`INSERT INTO login_history (user_id, email, ip_address, user_agent, success, failure_reason, device_id, created_at)
        SELECT NULL, ${a.email}, ${a.ipAddress}, ${a.userAgent}, 0, 'pending', ${deviceId}, ${t}`;
  if (a.deviceId) {
    // raw-sql: guarded-insert
    const row = await db.get<{ id: number }>(sql`${insert(a.deviceId)}
      WHERE (SELECT count(*) FROM login_history WHERE device_id = ${a.deviceId} AND success = 0 AND created_at >= ${hourAgo}) < ${DEVICE_MAX_FAILURES_PER_HOUR}
      RETURNING id`);
    if (row) return { id: row.id, deviceId: a.deviceId };
  }
  // Back-off: consecutive unknown-client failures since the last success within the hour; the wait doubles
  // from 30 s per failure past 5, capped at 15 min (30 s << 5 > 15 min).
  const lastOk = sql`(SELECT max(created_at) + 1 FROM login_history WHERE email = ${a.email} AND success = 1 AND created_at >= ${hourAgo})`;
  // raw-sql: guarded-insert
  const row = await db.get<{ id: number }>(sql`${insert(null)}
    WHERE (SELECT count(*) FROM login_history WHERE email = ${a.email} AND success = 0 AND device_id IS NULL AND created_at >= ${hourAgo}) < ${MAX_FAILURES_PER_HOUR_ACCOUNT}
      AND (${a.ipAddress} IS NULL OR ${ipFailures(a.ipAddress ?? "", hourAgo)} < ${MAX_FAILURES_PER_HOUR_IP}
           OR (SELECT count(*) FROM login_history WHERE email = ${a.email} AND ip_address = ${a.ipAddress} AND success = 0 AND device_id IS NULL AND created_at >= ${hourAgo}) < ${BUSY_NETWORK_FAILURES_PER_ACCOUNT})
      AND (SELECT CASE WHEN f.n < ${BACKOFF_AFTER_FAILURES} THEN 1
                  ELSE f.last + min(${BACKOFF_BASE_MS} << min(f.n - ${BACKOFF_AFTER_FAILURES}, 5), ${BACKOFF_MAX_MS}) <= ${t} END
           FROM (SELECT count(*) AS n, max(created_at) AS last FROM login_history
                 WHERE email = ${a.email} AND success = 0 AND device_id IS NULL AND created_at >= max(${hourAgo}, coalesce(${lastOk}, 0))) AS f)
    RETURNING id`);
  return row ? { id: row.id, deviceId: null } : null;
}
