import { env } from "cloudflare:test";
import { expect } from "vitest";
import { hashPassword } from "~/auth/password-hash.js";
import { createDb } from "~/db/client.server";
import { users, type Role } from "~/db/schema";

export const db = () => createDb(env.DB);

// Hashing at full cost in every test is slow; factories use a low (still valid) iteration count.
const FAST_ITERATIONS = 1_000;

let seq = 0;
export async function createTestUser(
  overrides: Partial<{
    email: string;
    password: string;
    role: Role;
    firstName: string;
    lastName: string;
    isActive: boolean;
  }> = {},
) {
  seq += 1;
  const password = overrides.password ?? "correct horse battery";
  const email = (overrides.email ?? `user${seq}-${crypto.randomUUID().slice(0, 8)}@example.com`).toLowerCase();
  const now = new Date();
  const [row] = await db()
    .insert(users)
    .values({
      email,
      passwordHash: await hashPassword(password, FAST_ITERATIONS),
      firstName: overrides.firstName ?? "Test",
      lastName: overrides.lastName ?? `User${seq}`,
      role: overrides.role ?? "user",
      isActive: overrides.isActive ?? true,
      createdAt: now,
      updatedAt: now,
    })
    .returning();
  return { ...row, password };
}

export const ORIGIN = "https://helio.test";

/** Calls the Worker like a browser on our origin would. */
export async function call(path: string, init: RequestInit & { json?: unknown; cookie?: string } = {}) {
  const { exports } = await import("cloudflare:workers");
  const headers = new Headers(init.headers);
  if (init.json !== undefined) {
    headers.set("Content-Type", "application/json");
  }
  if (init.cookie) headers.set("Cookie", init.cookie);
  headers.set("Host", new URL(ORIGIN).host);
  if (init.method && init.method !== "GET" && !headers.has("Origin")) headers.set("Origin", ORIGIN);
  return (exports as any).default.fetch(
    new Request(ORIGIN + path, {
      ...init,
      headers,
      body: init.json !== undefined ? JSON.stringify(init.json) : init.body,
      redirect: "manual",
    }),
  ) as Promise<Response>;
}

/** POSTs `body` exactly as given with `contentType`: the malformed or wrongly typed bodies `json` cannot send. */
export const postRaw = (path: string, cookie: string, body: string, contentType: string) =>
  call(path, { method: "POST", cookie, body, headers: { "Content-Type": contentType } });

/** Each [path, method] answers 401 without a session (with a `{}` JSON body where the method takes one). */
export async function expectSessionNeeded(routes: readonly (readonly [path: string, method: string])[]) {
  for (const [path, method] of routes) {
    const json = method === "GET" || method === "DELETE" ? undefined : {};
    expect((await call(path, { method, json })).status, `${method} ${path}`).toBe(401);
  }
}

export function sessionCookieFrom(res: Response): string {
  const set = res.headers.getSetCookie().find((c) => c.includes("helio_session="));
  if (!set) throw new Error("no session cookie in response");
  return set.split(";")[0];
}

/** `code`: the TOTP or recovery code of an account with two-factor on (sent with the password, as the API takes it). */
/** A new standard user and a session cookie for them. */
export async function signedIn() {
  const user = await createTestUser();
  return { user, cookie: await loginAs(user) };
}

export async function loginAs(user: { email: string; password: string; code?: string }) {
  const res = await call("/api/auth/login", {
    method: "POST",
    json: { email: user.email, password: user.password, code: user.code },
  });
  if (res.status !== 200) throw new Error(`login failed: ${res.status} ${await res.text()}`);
  return sessionCookieFrom(res);
}

/** A viewer who sees every contact (decision 048): for tests of contact functions that are not about scope. */
export const SEES_ALL = { userId: 0, role: "superuser" } as const;
