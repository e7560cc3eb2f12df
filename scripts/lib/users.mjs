import { hashPassword } from "../../app/auth/password-hash.js";
import { passwordProblem } from "../../app/auth/password-rules.js";
import { LAST_SUPERUSER } from "../../app/users/superuser-rules.js";
import { d1, q } from "./d1.mjs";

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** The superuser `npm start` makes sure exists (and `npm run bench:seed` owns its rows by). */
export const ADMIN = {
  email: process.env.HELIO_ADMIN_EMAIL || "admin@helio.local",
  password: process.env.HELIO_ADMIN_PASSWORD || "helio-admin",
  role: "superuser",
  first: "Helio",
  last: "Admin",
};

export function validateUserInput({ email, password, role, first, last }) {
  const errors = [];
  if (!email || !EMAIL.test(email)) errors.push("--email must be a valid email address");
  // The app's own rule (app/auth/password-rules.js), not a copy of it.
  const problem = passwordProblem(password === undefined || password === true ? undefined : String(password));
  if (problem) errors.push(`--password: ${problem}`);
  if (!["user", "superuser"].includes(role)) errors.push("--role must be user or superuser");
  if (!first) errors.push("--first is required");
  if (!last) errors.push("--last is required");
  return errors;
}

/**
 * Creates a user. onConflict "ignore" keeps an existing account untouched (used to seed the admin);
 * "error" reports it.
 */
export async function createUser({ email, password, role, first, last }, { onConflict = "error", ...opts } = {}) {
  const now = Date.now();
  const hash = await hashPassword(String(password));
  const mail = String(email).trim().toLowerCase();
  const existing = d1(`SELECT id FROM users WHERE email = ${q(mail)}`, opts);
  if (existing.length) {
    if (onConflict === "ignore") return { created: false, id: existing[0].id };
    throw new Error(`A user with email ${mail} already exists`);
  }
  d1(
    `INSERT INTO users (email, password_hash, first_name, last_name, role, is_active, login_count, created_at, updated_at)
     VALUES (${q(mail)}, ${q(hash)}, ${q(first)}, ${q(last)}, ${q(role)}, 1, 0, ${now}, ${now})`,
    opts,
  );
  const [row] = d1(`SELECT id FROM users WHERE email = ${q(mail)}`, opts);
  return { created: true, id: row.id };
}

/**
 * Activates or deactivates; deactivating also ends the user's sessions at once. The last active superuser cannot be
 * deactivated: the UPDATE itself carries the condition (as the app's updateUser does), so no check-then-write race.
 */
export function setUserActive(email, active, opts = {}) {
  const mail = String(email).trim().toLowerCase();
  const rows = d1(`SELECT id, role, is_active FROM users WHERE email = ${q(mail)}`, opts);
  if (!rows.length) throw new Error(`No user with email ${mail}`);
  const id = Number(rows[0].id);
  if (active) {
    d1(`UPDATE users SET is_active = 1, updated_at = ${Date.now()} WHERE id = ${id}`, opts);
    return id;
  }
  const changed = d1(
    `UPDATE users SET is_active = 0, updated_at = ${Date.now()} WHERE id = ${id}
       AND (role <> 'superuser' OR is_active = 0 OR EXISTS (SELECT 1 FROM users o WHERE o.role = 'superuser' AND o.is_active = 1 AND o.id <> ${id}))
     RETURNING id`,
    opts,
  );
  if (!changed.length) throw new Error(LAST_SUPERUSER);
  d1(`DELETE FROM sessions WHERE user_id = ${id}`, opts);
  return id;
}
