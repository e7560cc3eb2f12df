import { and, eq, isNotNull, isNull } from "drizzle-orm";
import { activityRow, logActivity } from "~/activity/log-activity.server";
import { runBatch, type Db } from "~/db/client.server";
import { orgFlagStatement, readOrgFlag } from "~/db/org-flag.server";
import { activityLog, recoveryCodes, sessions, users } from "~/db/schema";
import { AppError } from "~/lib/app-error";
import { sha256Hex } from "~/lib/crypto.server";
import { verifyPassword } from "./password-hash.js";
import { base32Encode, matchTotp, newTotpSecret, otpauthUri } from "./totp";
import { REQUIRE_SUPERUSER_2FA_KEY } from "./two-factor-settings";
import { normaliseRecoveryCode } from "./verify-second-factor.server";
import type { Actor } from "~/lib/actor";

export const RECOVERY_CODE_COUNT = 10;

/** The Account screen's two-factor state. The secret is returned only while enrolment waits for its first code. */
export async function getTwoFactorState(db: Db, userId: number) {
  const u = await db
    .select({ email: users.email, secret: users.totpSecret, enabledAt: users.totpEnabledAt })
    .from(users)
    .where(eq(users.id, userId))
    .get();
  if (!u) throw new AppError("not_found", "User not found");
  if (u.enabledAt) {
    const left = await db
      .select({ id: recoveryCodes.id })
      .from(recoveryCodes)
      .where(and(eq(recoveryCodes.userId, userId), isNull(recoveryCodes.usedAt)));
    return {
      enabled: true as const,
      enabledAt: u.enabledAt.toISOString(),
      recoveryCodesLeft: left.length,
      pending: null,
    };
  }
  return {
    enabled: false as const,
    enabledAt: null,
    recoveryCodesLeft: 0,
    pending: u.secret ? { secret: u.secret, uri: otpauthUri(u.secret, u.email) } : null,
  };
}

/** Starts (or restarts) enrolment: a new secret, not yet in force until confirmed with a code. */
export async function startTwoFactorEnrolment(db: Db, userId: number) {
  const secret = newTotpSecret();
  const res = await db
    .update(users)
    .set({ totpSecret: secret, totpLastStep: null })
    .where(and(eq(users.id, userId), isNull(users.totpEnabledAt)))
    .returning({ id: users.id });
  if (!res.length) throw new AppError("conflict", "Two-factor authentication is already on");
  return secret;
}

/** Ten random codes of 10 base32 characters (50 bits each), shown as xxxxx-xxxxx. */
export function newRecoveryCodes(): string[] {
  return Array.from({ length: RECOVERY_CODE_COUNT }, () => {
    const raw = base32Encode(crypto.getRandomValues(new Uint8Array(7)))
      .slice(0, 10)
      .toLowerCase();
    return `${raw.slice(0, 5)}-${raw.slice(5)}`;
  });
}

/**
 * Turns two-factor on once the first code from the app matches the pending secret; returns the recovery codes —
 * the only time they exist in clear (only their SHA-256 is stored).
 */
export async function confirmTwoFactor(
  db: Db,
  userId: number,
  code: string,
  actor: Actor,
  now: Date,
): Promise<string[]> {
  const u = await db
    .select({ secret: users.totpSecret, enabledAt: users.totpEnabledAt })
    .from(users)
    .where(eq(users.id, userId))
    .get();
  if (!u) throw new AppError("not_found", "User not found");
  if (u.enabledAt) throw new AppError("conflict", "Two-factor authentication is already on");
  if (!u.secret) throw new AppError("validation", "Start the set-up first", { field: "code" });
  const step = /^\d{6}$/.test(code.trim()) ? await matchTotp(u.secret, code.trim(), now) : null;
  if (step === null)
    throw new AppError("validation", "That code does not match. Check the time on your phone and try the next code.", {
      field: "code",
    });
  const codes = newRecoveryCodes();
  const hashes = await Promise.all(codes.map((c) => sha256Hex(normaliseRecoveryCode(c))));
  await runBatch(db, [
    db
      .update(users)
      .set({ totpEnabledAt: now, totpLastStep: step, updatedAt: now })
      .where(and(eq(users.id, userId), isNull(users.totpEnabledAt))),
    db.delete(recoveryCodes).where(eq(recoveryCodes.userId, userId)),
    db.insert(recoveryCodes).values(hashes.map((codeHash) => ({ userId, codeHash, createdAt: now }))),
    db
      .insert(activityLog)
      .values(activityRow("enable_two_factor", { userId: actor.userId, ipAddress: actor.ipAddress, now })),
  ]);
  return codes;
}

const clearTwoFactor = (db: Db, userId: number, now: Date) => [
  db
    .update(users)
    .set({ totpSecret: null, totpEnabledAt: null, totpLastStep: null, updatedAt: now })
    .where(eq(users.id, userId)),
  db.delete(recoveryCodes).where(eq(recoveryCodes.userId, userId)),
];

/** The user turns two-factor off: their password is required (a borrowed unlocked session is not enough). */
export async function disableTwoFactor(db: Db, userId: number, password: string, actor: Actor, now: Date) {
  const u = await db
    .select({ passwordHash: users.passwordHash, enabledAt: users.totpEnabledAt })
    .from(users)
    .where(eq(users.id, userId))
    .get();
  if (!u) throw new AppError("not_found", "User not found");
  if (!(await verifyPassword(password, u.passwordHash)))
    throw new AppError("validation", "Password is incorrect", { field: "password" });
  await runBatch(db, [
    ...clearTwoFactor(db, userId, now),
    db
      .insert(activityLog)
      .values(activityRow("disable_two_factor", { userId: actor.userId, ipAddress: actor.ipAddress, now })),
  ]);
}

/**
 * A superuser resets another user's two-factor (a lost phone): off, codes deleted, that user's sessions ended;
 * logged with the target. The user signs in with the password alone and can enrol again.
 */
export async function resetTwoFactor(db: Db, targetUserId: number, actor: Actor, now: Date) {
  const res = await db
    .select({ id: users.id })
    .from(users)
    .where(and(eq(users.id, targetUserId), isNotNull(users.totpSecret)))
    .get();
  await runBatch(db, [
    ...clearTwoFactor(db, targetUserId, now),
    db.delete(sessions).where(eq(sessions.userId, targetUserId)),
    logActivity(db, "reset_two_factor", {
      ...actor,
      now,
      details: { targetUserId, wasOn: Boolean(res) },
    }),
  ]);
}

/** "Require two-factor for superusers" (org_settings; read on every request inside the session lookup). */
export async function getTwoFactorPolicy(db: Db): Promise<{ requireForSuperusers: boolean }> {
  return { requireForSuperusers: await readOrgFlag(db, REQUIRE_SUPERUSER_2FA_KEY) };
}

/**
 * Turns the requirement on or off (logged). Turning it on needs the superuser's own two-factor on first, so the
 * person who sets the rule is not the first one stopped by it.
 */
export async function setTwoFactorPolicy(
  db: Db,
  requireForSuperusers: boolean,
  actor: Actor & { twoFactorEnabled: boolean },
  now: Date,
) {
  if (requireForSuperusers && !actor.twoFactorEnabled) {
    throw new AppError(
      "conflict",
      "Turn on two-factor for your own account first (My Profile → Two-factor authentication).",
    );
  }
  await runBatch(db, [
    orgFlagStatement(db, REQUIRE_SUPERUSER_2FA_KEY, requireForSuperusers, now),
    logActivity(db, "set_two_factor_policy", {
      ...actor,
      now,
      details: { requireForSuperusers },
    }),
  ]);
}
