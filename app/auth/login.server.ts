import { and, count, desc, eq, gte, isNull, max, sql } from "drizzle-orm";
import { runBatch, type Db } from "~/db/client.server";
import { loginHistory, sessions, users } from "~/db/schema";
import { logActivity } from "~/activity/log-activity.server";
import {
  BACKOFF_AFTER_FAILURES,
  BACKOFF_BASE_MS,
  BACKOFF_MAX_MS,
  BUSY_NETWORK_FAILURES_PER_ACCOUNT,
  HOUR_MS as HOUR,
  MAX_FAILURES_PER_HOUR_ACCOUNT,
  MAX_FAILURES_PER_HOUR_IP,
  reserveLoginAttempt,
} from "./login-throttle.server";
import { hashPassword, verifyPassword } from "./password-hash.js";
import { newSession, type SessionUser } from "./session.server";
import { INVALID_CODE, verifySecondFactor } from "./verify-second-factor.server";

import { AppError } from "~/lib/app-error";

// ASVS 2.2.1: at most 100 failed attempts per account per hour, with back-off after a few.
// The limits live with the atomic reservation (login-throttle.server.ts).
export {
  MAX_FAILURES_PER_HOUR_ACCOUNT,
  MAX_FAILURES_PER_HOUR_IP,
  BACKOFF_AFTER_FAILURES,
} from "./login-throttle.server";

export const INVALID_CREDENTIALS = "Invalid email or password";

let dummyHash: Promise<string> | null = null;

async function failureStats(
  db: Db,
  column: typeof loginHistory.email | typeof loginHistory.ipAddress,
  value: string,
  since: Date,
) {
  const row = await db
    .select({ n: count(), last: max(loginHistory.createdAt) })
    .from(loginHistory)
    .where(
      and(
        eq(column, value),
        eq(loginHistory.success, false),
        isNull(loginHistory.deviceId),
        gte(loginHistory.createdAt, since),
      ),
    )
    .get();
  return { n: row?.n ?? 0, last: row?.last ? new Date(row.last as unknown as number) : null };
}

async function consecutiveFailures(db: Db, email: string, since: Date) {
  // Failures since the last success within the window: a success resets the back-off.
  const lastOk = await db
    .select({ at: loginHistory.createdAt })
    .from(loginHistory)
    .where(and(eq(loginHistory.email, email), eq(loginHistory.success, true), gte(loginHistory.createdAt, since)))
    .orderBy(desc(loginHistory.createdAt))
    .limit(1)
    .get();
  return failureStats(db, loginHistory.email, email, lastOk ? new Date(lastOk.at.getTime() + 1) : since);
}

function minutes(ms: number) {
  const m = Math.max(1, Math.ceil(ms / 60_000));
  return `${m} minute${m === 1 ? "" : "s"}`;
}

/**
 * Refuses (429) when the account or the IP has failed too often recently (unknown clients' failures). The
 * enforcement is the atomic reservation in login-throttle.server.ts; this says which limit was hit.
 */
export async function assertNotThrottled(db: Db, email: string, ipAddress: string | null, now: Date) {
  const hourAgo = new Date(now.getTime() - HOUR);
  const hourly = await failureStats(db, loginHistory.email, email, hourAgo);
  if (hourly.n >= MAX_FAILURES_PER_HOUR_ACCOUNT) {
    throw new AppError("rate_limited", "Too many failed login attempts for this account. Please try again in an hour.");
  }
  if (ipAddress) {
    // A busy network only limits each account's failures from it (decision 023), never the network as a whole.
    // The IP's unknown-client failures in the hour, counted up to the budget only (as ipFailures does).
    const recent = db
      .select({ one: sql`1` })
      .from(loginHistory)
      .where(
        and(
          eq(loginHistory.ipAddress, ipAddress),
          eq(loginHistory.success, false),
          isNull(loginHistory.deviceId),
          gte(loginHistory.createdAt, hourAgo),
        ),
      )
      .limit(MAX_FAILURES_PER_HOUR_IP)
      .as("recent");
    const busy = (await db.select({ n: count() }).from(recent).get())!.n >= MAX_FAILURES_PER_HOUR_IP;
    const fromHere = busy
      ? (await db
          .select({ n: count() })
          .from(loginHistory)
          .where(
            and(
              eq(loginHistory.email, email),
              eq(loginHistory.ipAddress, ipAddress),
              eq(loginHistory.success, false),
              isNull(loginHistory.deviceId),
              gte(loginHistory.createdAt, hourAgo),
            ),
          )
          .get())!.n
      : 0;
    if (busy && fromHere >= BUSY_NETWORK_FAILURES_PER_ACCOUNT) {
      throw new AppError(
        "rate_limited",
        "Too many failed login attempts for this account from this network. Please try again in an hour.",
      );
    }
  }
  const recent = await consecutiveFailures(db, email, hourAgo);
  if (recent.n >= BACKOFF_AFTER_FAILURES && recent.last) {
    const wait = Math.min(BACKOFF_BASE_MS * 2 ** (recent.n - BACKOFF_AFTER_FAILURES), BACKOFF_MAX_MS);
    const remaining = recent.last.getTime() + wait - now.getTime();
    if (remaining > 0) {
      throw new AppError("rate_limited", `Too many failed login attempts. Please try again in ${minutes(remaining)}.`);
    }
  }
}

/**
 * `deviceId`: the id of a valid device cookie for this account (device-cookie.server.ts), throttled on its own.
 * `code`: a TOTP or recovery code sent with the password in one call (the JSON API); the form asks for it after.
 */
export type LoginInput = {
  email: string;
  password: string;
  ipAddress: string | null;
  userAgent: string | null;
  deviceId?: string | null;
  code?: string | null;
};

export type LogInResult =
  | { user: SessionUser; token: string; pending: null }
  /** The password was right and the account has two-factor on: ask for the code (pending-sign-in.server.ts). */
  | { user: null; token: null; pending: { userId: number; attemptId: number } };

export const TWO_FACTOR_REQUIRED = "Enter the 6-digit code from your authenticator app, or a recovery code";

/** Counts an attempt before anything is verified; throws the throttle's message when it is refused. */
async function reserve(
  db: Db,
  input: { email: string; ipAddress: string | null; userAgent: string | null; deviceId?: string | null },
  now: Date,
) {
  const attempt = await reserveLoginAttempt(
    db,
    { email: input.email, ipAddress: input.ipAddress, userAgent: input.userAgent, deviceId: input.deviceId ?? null },
    now,
  );
  if (!attempt) {
    await assertNotThrottled(db, input.email, input.ipAddress, now);
    throw new AppError("rate_limited", "Too many failed login attempts. Please try again later.");
  }
  return attempt;
}

type UserRow = typeof users.$inferSelect;

/** The session, the attempt's history entry, the user's counters and the `login` activity entry in one D1 batch. */
async function startSession(
  db: Db,
  user: UserRow,
  attemptId: number,
  input: { ipAddress: string | null; userAgent: string | null },
  now: Date,
  extra: unknown[] = [],
) {
  const { token, row } = await newSession(user.id, now, input);
  await runBatch(db, [
    db.insert(sessions).values(row),
    db
      .update(loginHistory)
      .set({ userId: user.id, success: true, failureReason: null })
      .where(eq(loginHistory.id, attemptId)),
    db
      .update(users)
      .set({ lastLoginAt: now, loginCount: sql`${users.loginCount} + 1`, updatedAt: now })
      .where(eq(users.id, user.id)),
    logActivity(db, "login", { userId: user.id, ipAddress: input.ipAddress, now }),
    ...extra,
  ]);
  const { id, firstName, lastName, role, isActive, mustChangePassword } = user;
  return {
    user: {
      id,
      email: user.email,
      firstName,
      lastName,
      role,
      isActive,
      mustChangePassword,
      twoFactorEnabled: user.totpEnabledAt !== null,
    },
    token,
    pending: null,
  };
}

/**
 * Verifies credentials and, on success, starts the session — or, for an account with two-factor on and no code
 * given, leaves the attempt open (still counted as a failure by the throttle until the code passes) and returns it.
 */
export async function logIn(db: Db, input: LoginInput, now: Date): Promise<LogInResult> {
  const email = input.email.trim().toLowerCase();
  if (!email || !input.password) throw new AppError("validation", "Please enter both email and password");
  // Count the attempt before verifying anything, atomically: concurrent guesses cannot all pass the throttle.
  const attempt = await reserve(db, { ...input, email }, now);
  const attemptRow = eq(loginHistory.id, attempt.id);

  const user = await db.select().from(users).where(eq(users.email, email)).get();
  // Hash anyway for unknown emails so response time does not reveal which accounts exist.
  const ok = user
    ? await verifyPassword(input.password, user.passwordHash)
    : await verifyPassword(input.password, await (dummyHash ??= hashPassword("dummy-password")));

  if (!user || !ok) {
    await db
      .update(loginHistory)
      .set({ userId: user?.id ?? null, failureReason: "invalid_credentials" })
      .where(attemptRow);
    throw new AppError("unauthorized", INVALID_CREDENTIALS);
  }
  if (!user.isActive) {
    await db.update(loginHistory).set({ userId: user.id, failureReason: "inactive" }).where(attemptRow);
    throw new AppError("forbidden", "Your account is inactive. Contact your administrator.");
  }
  if (user.totpEnabledAt) {
    if (!input.code) {
      await db.update(loginHistory).set({ userId: user.id, failureReason: "second_factor" }).where(attemptRow);
      return { user: null, token: null, pending: { userId: user.id, attemptId: attempt.id } };
    }
    if (!(await verifySecondFactor(db, user, input.code, now))) {
      await db.update(loginHistory).set({ userId: user.id, failureReason: "invalid_code" }).where(attemptRow);
      throw new AppError("unauthorized", INVALID_CODE, { field: "code" });
    }
  }
  return startSession(db, user, attempt.id, input, now);
}

export type SecondFactorInput = {
  pending: { userId: number; attemptId: number };
  code: string;
  ipAddress: string | null;
  userAgent: string | null;
  /** The browser's device cookie id for the account once it is known (its own throttle budget, as for passwords). */
  deviceIdFor?: (email: string) => Promise<string | null>;
};

/**
 * The second step of a two-factor sign-in: the code is an attempt on the account like a password (same reservation,
 * same back-off), so a stolen pending cookie cannot guess codes faster than passwords. On success the password
 * attempt becomes the sign-in's history entry and the code's reservation is dropped.
 */
export async function completeTwoFactorSignIn(
  db: Db,
  input: SecondFactorInput,
  now: Date,
): Promise<{ user: SessionUser; token: string }> {
  const user = await db.select().from(users).where(eq(users.id, input.pending.userId)).get();
  if (!user || !user.isActive || !user.totpEnabledAt)
    throw new AppError("unauthorized", "Your sign-in expired. Please sign in again.");
  const deviceId = (await input.deviceIdFor?.(user.email)) ?? null;
  const attempt = await reserve(db, { ...input, email: user.email, deviceId }, now);
  if (!(await verifySecondFactor(db, user, input.code, now))) {
    await db
      .update(loginHistory)
      .set({ userId: user.id, failureReason: "invalid_code" })
      .where(eq(loginHistory.id, attempt.id));
    throw new AppError("unauthorized", INVALID_CODE, { field: "code" });
  }
  // The pending cookie is single-use: claim its password attempt (still open) before starting the session, so a
  // copied cookie cannot open a second session with a later code.
  const claimed = await db
    .update(loginHistory)
    .set({ failureReason: "second_factor_claimed" })
    .where(
      and(
        eq(loginHistory.id, input.pending.attemptId),
        eq(loginHistory.userId, user.id),
        eq(loginHistory.failureReason, "second_factor"),
      ),
    )
    .returning({ id: loginHistory.id });
  if (!claimed.length) {
    await db
      .update(loginHistory)
      .set({ userId: user.id, failureReason: "expired_second_factor" })
      .where(eq(loginHistory.id, attempt.id));
    throw new AppError("unauthorized", "Your sign-in expired. Please sign in again.");
  }
  // The password attempt (named by the signed cookie) becomes the sign-in's history entry; the code's reservation
  // has done its job (it was counted while the code was checked) and goes.
  const signedIn = await startSession(db, user, input.pending.attemptId, input, now, [
    db.delete(loginHistory).where(eq(loginHistory.id, attempt.id)),
  ]);
  return { user: signedIn.user, token: signedIn.token };
}
