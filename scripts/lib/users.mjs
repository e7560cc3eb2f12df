import { hashPassword } from "../../app/auth/password-hash.js";
import { passwordProblem } from "../../app/auth/password-rules.js";
import { HAND_OFF_INVALID, HAND_OFF_REQUIRED, LAST_SUPERUSER } from "../../app/users/superuser-rules.js";
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
 * A user who owns contacts names who takes them over (`handOffTo`, an email; decision 044): the deactivation, the
 * hand-off and the sessions go in one command (one D1 batch), the last two only once the user is inactive.
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
  let takerId = null;
  if (opts.handOffTo) {
    const taker = String(opts.handOffTo).trim().toLowerCase();
    const found = d1(`SELECT id FROM users WHERE email = ${q(taker)} AND is_active = 1 AND id <> ${id}`, opts);
    if (!found.length) throw new Error(`${HAND_OFF_INVALID}: no other active user with email ${taker}`);
    takerId = Number(found[0].id);
  } else if (d1(`SELECT id FROM contacts WHERE owner_user_id = ${id} LIMIT 1`, opts).length) {
    throw new Error(`${HAND_OFF_REQUIRED}: pass --hand-off-to <email>`);
  }
  const now = Date.now();
  const inactive = `EXISTS (SELECT 1 FROM users WHERE id = ${id} AND is_active = 0)`;
  const [after] = d1(
    `UPDATE users SET is_active = 0, updated_at = ${now} WHERE id = ${id}
       AND (role <> 'superuser' OR is_active = 0 OR EXISTS (SELECT 1 FROM users o WHERE o.role = 'superuser' AND o.is_active = 1 AND o.id <> ${id}));
     ${takerId === null ? "" : `UPDATE contacts SET owner_user_id = ${takerId}, updated_at = ${now} WHERE owner_user_id = ${id} AND ${inactive};`}
     DELETE FROM sessions WHERE user_id = ${id} AND ${inactive};
     SELECT is_active FROM users WHERE id = ${id}`,
    opts,
  );
  if (Number(after?.is_active) !== 0) throw new Error(LAST_SUPERUSER);
  return id;
}
