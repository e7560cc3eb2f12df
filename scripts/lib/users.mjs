import { hashPassword } from "../../app/auth/password-hash.js";
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
  if (!password || String(password).length < 8) errors.push("--password must be at least 8 characters");
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

/** Activates or deactivates; deactivating also ends the user's sessions at once. */
export function setUserActive(email, active, opts = {}) {
  const mail = String(email).trim().toLowerCase();
  const rows = d1(`SELECT id FROM users WHERE email = ${q(mail)}`, opts);
  if (!rows.length) throw new Error(`No user with email ${mail}`);
  d1(`UPDATE users SET is_active = ${active ? 1 : 0}, updated_at = ${Date.now()} WHERE id = ${rows[0].id}`, opts);
  if (!active) d1(`DELETE FROM sessions WHERE user_id = ${rows[0].id}`, opts);
  return rows[0].id;
}
