import { and, count, desc, eq, gt, lt, ne, sql, sum } from "drizzle-orm";
import { logActivity } from "~/activity/log-activity.server";
import { resetTwoFactor } from "~/auth/manage-two-factor.server";
import { hashPassword, verifyPassword } from "~/auth/password-hash.js";
import { MIN_PASSWORD_LENGTH, passwordProblem } from "~/auth/password-rules.js";
import { handOffContactsStatement, ownsContacts } from "~/contacts/set-contact-owner.server";
import { runBatch, type Db } from "~/db/client.server";
import { isUniqueViolation } from "~/db/unique-violation";
import { activityLog, activityTotals, loginHistory, sessions, users, type Role, type User } from "~/db/schema";
import { AppError } from "~/lib/app-error";
import { HAND_OFF_INVALID, HAND_OFF_REQUIRED, LAST_SUPERUSER } from "./superuser-rules.js";
import type { Actor } from "~/lib/actor";
import type { SmsProvider } from "~/messaging/providers/provider";
import { setSendingNumber } from "./set-sending-number.server";
import { loggedUserUpdate, mustExist, USER_NOT_FOUND } from "./user-writes.server";

export { HAND_OFF_INVALID, HAND_OFF_REQUIRED, LAST_SUPERUSER, USER_NOT_FOUND };
export const MIN_PASSWORD = MIN_PASSWORD_LENGTH;

/** A readable one-time password (no look-alike characters), 16 characters ≈ 90 bits. */
export function randomPassword(length = 16): string {
  const alphabet = "ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnpqrstuvwxyz23456789";
  const bytes = crypto.getRandomValues(new Uint8Array(length));
  // 256 is not a multiple of the alphabet size; the bias (< 1 bit overall) does not matter for a one-time secret.
  return Array.from(bytes, (b) => alphabet[b % alphabet.length]).join("");
}

export type PublicUserRow = {
  id: number;
  email: string;
  firstName: string;
  lastName: string;
  phone: string | null;
  role: Role;
  isActive: boolean;
  availableForLeads: boolean;
  /** The rep's own sending number (decision 045); null = the default. */
  smsSender: string | null;
  lastLoginAt: string | null;
  loginCount: number;
  totalActivities: number;
  createdAt: string;
  mustChangePassword: boolean;
  twoFactorEnabled: boolean;
};

export function publicUserRow(u: User): PublicUserRow {
  return {
    id: u.id,
    email: u.email,
    firstName: u.firstName,
    lastName: u.lastName,
    phone: u.phone,
    role: u.role,
    isActive: u.isActive,
    availableForLeads: u.availableForLeads,
    smsSender: u.smsSender,
    lastLoginAt: u.lastLoginAt ? u.lastLoginAt.toISOString() : null,
    loginCount: u.loginCount,
    totalActivities: u.activityCount,
    createdAt: u.createdAt.toISOString(),
    mustChangePassword: u.mustChangePassword,
    twoFactorEnabled: u.totpEnabledAt !== null,
  };
}

export const USERS_PAGE = 100;
export const MAX_USERS_PAGE = 500;

/** Oldest first, keyset-paged on id (`after` = the last id seen): every page costs the same, however big the team. */
export async function listUsers(db: Db, opts: { after?: number | null; limit?: number } = {}) {
  const limit = Math.min(Math.max(opts.limit ?? USERS_PAGE, 1), MAX_USERS_PAGE);
  const rows = await db
    .select()
    .from(users)
    .where(opts.after ? gt(users.id, opts.after) : undefined)
    .orderBy(users.id)
    .limit(limit + 1);
  const page = rows.slice(0, limit);
  return { items: page.map(publicUserRow), nextCursor: rows.length > limit ? page.at(-1)!.id : null };
}

/** The team's figures for the stat cards: one aggregate over the users table (a team, not the contact list). */
export async function userTotals(db: Db): Promise<{ total: number; superusers: number; active: number }> {
  const row = await db
    .select({
      total: count(),
      superusers: sum(sql`${users.role} = 'superuser'`).mapWith(Number),
      active: sum(users.isActive).mapWith(Number),
    })
    .from(users)
    .get();
  return { total: row?.total ?? 0, superusers: row?.superusers ?? 0, active: row?.active ?? 0 };
}

export async function activityTotal(db: Db): Promise<number> {
  const row = await db
    .select({ total: activityTotals.total })
    .from(activityTotals)
    .where(eq(activityTotals.id, 1))
    .get();
  return row?.total ?? 0;
}

export type ActivityEntry = {
  id: number;
  userId: number | null;
  userName: string | null;
  userEmail: string | null;
  /** SPEC §3: the acting user, absent for anonymous entries (a failed login, a webhook). */
  user: { firstName: string; lastName: string; email: string } | null;
  action: string;
  details: Record<string, unknown> | null;
  ipAddress: string | null;
  createdAt: string;
};

/** Latest first, keyset by id (`before`), optionally one user's (both through indexes). */
export async function listActivity(
  db: Db,
  opts: { limit: number; before?: number; userId?: number },
): Promise<ActivityEntry[]> {
  const where = and(
    opts.before ? lt(activityLog.id, opts.before) : undefined,
    opts.userId ? eq(activityLog.userId, opts.userId) : undefined,
  );
  const rows = await db
    .select({
      id: activityLog.id,
      userId: activityLog.userId,
      firstName: users.firstName,
      lastName: users.lastName,
      email: users.email,
      action: activityLog.action,
      details: activityLog.details,
      ipAddress: activityLog.ipAddress,
      createdAt: activityLog.createdAt,
    })
    .from(activityLog)
    .leftJoin(users, eq(users.id, activityLog.userId))
    .where(where)
    .orderBy(...(opts.userId ? [desc(activityLog.createdAt), desc(activityLog.id)] : [desc(activityLog.id)]))
    .limit(opts.limit);
  return rows.map((r) => ({
    id: r.id,
    userId: r.userId,
    userName: r.email ? `${r.firstName ?? ""} ${r.lastName ?? ""}`.trim() || r.email.split("@")[0] : null,
    userEmail: r.email,
    user: r.email ? { firstName: r.firstName ?? "", lastName: r.lastName ?? "", email: r.email } : null,
    action: r.action,
    details: r.details ?? null,
    ipAddress: r.ipAddress,
    createdAt: r.createdAt.toISOString(),
  }));
}

export async function getUserDetails(db: Db, id: number) {
  const user = await db.select().from(users).where(eq(users.id, id)).get();
  if (!user) throw new AppError("not_found", USER_NOT_FOUND);
  const [activity, logins] = await Promise.all([
    listActivity(db, { limit: 20, userId: id }),
    db
      .select({ createdAt: loginHistory.createdAt, ipAddress: loginHistory.ipAddress, success: loginHistory.success })
      .from(loginHistory)
      .where(and(eq(loginHistory.userId, id), eq(loginHistory.success, true)))
      .orderBy(desc(loginHistory.createdAt), desc(loginHistory.id))
      .limit(20),
  ]);
  return {
    user: publicUserRow(user),
    activity,
    logins: logins.map((l) => ({ createdAt: l.createdAt.toISOString(), ipAddress: l.ipAddress })),
  };
}

function normaliseEmail(email: string) {
  return email.trim().toLowerCase();
}

export type NewUserInput = { email: string; firstName: string; lastName: string; role: Role; phone?: string | null };

/** Creates an account with a random one-time password (returned once, never stored in clear or logged). */
export async function createUser(
  db: Db,
  input: NewUserInput,
  actor: Actor,
  now: Date,
  opts: { iterations?: number } = {},
) {
  const password = randomPassword();
  const passwordHash = await hashPassword(password, opts.iterations);
  const email = normaliseEmail(input.email);
  try {
    const [inserted] = (await runBatch(db, [
      db
        .insert(users)
        .values({
          email,
          passwordHash,
          firstName: input.firstName.trim(),
          lastName: input.lastName.trim(),
          phone: input.phone?.trim() || null,
          role: input.role,
          isActive: true,
          mustChangePassword: true,
          createdAt: now,
          updatedAt: now,
        })
        .returning(),
    ])) as User[][];
    const user = inserted[0];
    await logActivity(db, "create_user", {
      ...actor,
      now,
      details: { targetUserId: user.id, email, role: input.role },
    });
    return { user: publicUserRow(user), password };
  } catch (err) {
    if (isUniqueViolation(err, "users.email"))
      throw new AppError("conflict", "A user with this email already exists", { field: "email" });
    throw err;
  }
}

/**
 * Demoting or deactivating a superuser: one conditional UPDATE, so two concurrent calls cannot both remove the
 * last active superuser (SQLite runs each statement atomically; the second sees the first's effect).
 */
const keepsAnotherSuperuser = (id: number) =>
  sql`(${users.role} <> 'superuser' OR ${users.isActive} = 0 OR EXISTS (SELECT 1 FROM ${users} o WHERE o.role = 'superuser' AND o.is_active = 1 AND o.id <> ${id}))`;

export type UserChange = {
  role?: Role;
  isActive?: boolean;
  /** On deactivation: the active user who takes over their contacts (required when they own any, decision 044). */
  handOffTo?: number | null;
  /** Round-robin takes them for new leads (decision 044). */
  availableForLeads?: boolean;
  /** The rep's own sending number, null to clear it (decision 045). */
  smsSender?: string | null;
  resetPassword?: boolean;
  resetTwoFactor?: boolean;
};

/** Role, active flag and password reset (superusers only; the route checks). Returns the one-time password on reset. */
export async function updateUser(
  db: Db,
  id: number,
  change: UserChange,
  actor: Actor,
  now: Date,
  opts: { iterations?: number; sms?: Pick<SmsProvider, "ownsNumber"> } = {},
) {
  const before = await mustExist(db, id);
  // First: a number refused (taken, not the account's) changes nothing else.
  if (change.smsSender !== undefined) await setSendingNumber(db, opts.sms ?? {}, id, change.smsSender, actor, now);
  let password: string | null = null;
  const log = (action: string, details: Record<string, unknown>) =>
    logActivity(db, action, {
      ...actor,
      now,
      details: { targetUserId: id, ...details },
    });

  if (change.role !== undefined && change.role !== before.role) {
    const guarded = change.role === "superuser" ? eq(users.id, id) : and(eq(users.id, id), keepsAnotherSuperuser(id));
    const res = await db
      .update(users)
      .set({ role: change.role, updatedAt: now })
      .where(guarded)
      .returning({ id: users.id });
    if (res.length === 0) throw new AppError("conflict", LAST_SUPERUSER);
    await log("change_user_role", { from: before.role, to: change.role });
  }
  if (change.isActive !== undefined && change.isActive !== before.isActive) {
    if (change.isActive) {
      await runBatch(db, [
        db.update(users).set({ isActive: true, updatedAt: now }).where(eq(users.id, id)),
        log("reactivate_user", {}),
      ]);
    } else {
      // Their leads go to someone first: checked before anything changes, moved in the same batch as the sessions.
      const handOffTo = change.handOffTo ?? null;
      if (handOffTo === null) {
        if (await ownsContacts(db, id)) throw new AppError("validation", HAND_OFF_REQUIRED, { field: "handOffTo" });
      } else {
        const taker = await db
          .select({ id: users.id })
          .from(users)
          .where(and(eq(users.id, handOffTo), eq(users.isActive, true), ne(users.id, id)))
          .get();
        if (!taker) throw new AppError("validation", HAND_OFF_INVALID, { field: "handOffTo" });
      }
      const res = await db
        .update(users)
        .set({ isActive: false, updatedAt: now })
        .where(and(eq(users.id, id), keepsAnotherSuperuser(id)))
        .returning({ id: users.id });
      if (res.length === 0) throw new AppError("conflict", LAST_SUPERUSER);
      // Ends every live session at once (findSessionUser also refuses an inactive user's session).
      await runBatch(db, [
        ...(handOffTo === null ? [] : [handOffContactsStatement(db, id, handOffTo, now)]),
        db.delete(sessions).where(eq(sessions.userId, id)),
        log("deactivate_user", handOffTo === null ? {} : { handOffTo }),
      ]);
    }
  }
  if (change.availableForLeads !== undefined && change.availableForLeads !== before.availableForLeads) {
    await setLeadAvailability(db, id, change.availableForLeads, actor, now);
  }
  if (change.resetPassword) {
    password = randomPassword();
    const passwordHash = await hashPassword(password, opts.iterations);
    await runBatch(db, [
      db.update(users).set({ passwordHash, mustChangePassword: true, updatedAt: now }).where(eq(users.id, id)),
      db.delete(sessions).where(eq(sessions.userId, id)),
      log("reset_user_password", {}),
    ]);
  }
  if (change.resetTwoFactor) await resetTwoFactor(db, id, actor, now);
  const after = await mustExist(db, id);
  return { user: publicUserRow(after), password };
}

/**
 * "Available for new leads" (decision 044): round-robin assignment skips a user who is away. A superuser sets it on
 * the users screen, every user on their own account page; logged with whose flag it was.
 */
export async function setLeadAvailability(db: Db, userId: number, available: boolean, actor: Actor, now: Date) {
  await runBatch(
    db,
    loggedUserUpdate(
      db,
      userId,
      { availableForLeads: available },
      { action: "set_lead_availability", details: { available } },
      actor,
      now,
    ),
  );
}

/** The signed-in user changes their own password: the current one is required; other sessions end. */
export async function changeOwnPassword(
  db: Db,
  userId: number,
  input: { currentPassword: string; newPassword: string },
  ctx: { ipAddress: string | null; keepSessionId: string | null },
  now: Date,
) {
  const user = await mustExist(db, userId);
  if (!(await verifyPassword(input.currentPassword, user.passwordHash))) {
    throw new AppError("validation", "Current password is incorrect", { field: "currentPassword" });
  }
  const problem = passwordProblem(input.newPassword);
  if (problem) throw new AppError("validation", problem, { field: "newPassword" });
  if (input.newPassword === input.currentPassword)
    throw new AppError("validation", "Choose a password different from the current one", { field: "newPassword" });
  const passwordHash = await hashPassword(input.newPassword);
  await runBatch(db, [
    db.update(users).set({ passwordHash, mustChangePassword: false, updatedAt: now }).where(eq(users.id, userId)),
    ctx.keepSessionId
      ? db.delete(sessions).where(and(eq(sessions.userId, userId), ne(sessions.id, ctx.keepSessionId)))
      : db.delete(sessions).where(eq(sessions.userId, userId)),
    logActivity(db, "change_password", { userId, ipAddress: ctx.ipAddress, now }),
  ]);
}

export type ProfileInput = { firstName: string; lastName: string; email: string; phone: string | null };

/** Name, email and phone of the signed-in user: they feed the {{salesRep…}} variables. */
export async function updateProfile(db: Db, userId: number, input: ProfileInput, actor: Actor, now: Date) {
  const before = await mustExist(db, userId);
  const email = normaliseEmail(input.email);
  const next = {
    firstName: input.firstName.trim(),
    lastName: input.lastName.trim(),
    email,
    phone: input.phone?.trim() || null,
  };
  const changed = (Object.keys(next) as (keyof typeof next)[]).filter((k) => (before[k] ?? null) !== next[k]);
  try {
    await runBatch(db, [
      db
        .update(users)
        .set({ ...next, updatedAt: now })
        .where(eq(users.id, userId)),
      logActivity(db, "update_profile", {
        ...actor,
        now,
        details: { fields: changed },
      }),
    ]);
  } catch (err) {
    if (isUniqueViolation(err, "users.email"))
      throw new AppError("conflict", "A user with this email already exists", { field: "email" });
    throw err;
  }
  return publicUserRow(await mustExist(db, userId));
}
