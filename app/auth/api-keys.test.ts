import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { activityLog, apiKeys, capCounters, users } from "~/db/schema";
import { sha256Hex } from "~/lib/crypto.server";
import { API_KEY_RATE_PER_MINUTE, API_KEY_RE, scopeFor } from "./api-key-scopes";
import { createApiKey, listApiKeys, revokeApiKey } from "./manage-api-keys.server";
import { call, createTestUser, db, loginAs } from "../../tests/factories";
import { bearer, createTestApiKey } from "../../tests/api-key-factory";

// Called like a server would: no Origin, no cookie.
const get = (path: string, secret: string, headers: Record<string, string> = {}) =>
  call(path, { headers: { ...bearer(secret), ...headers } });

describe("API keys (decision 035)", () => {
  it("stores only the SHA-256 and a short prefix; the secret is helio_ + 32 random bytes", async () => {
    const u = await createTestUser();
    const key = await createApiKey(
      db(),
      { name: "Vendor", scopes: ["leads"], expiresInDays: 30 },
      { userId: u.id, ipAddress: null },
      new Date(),
    );
    expect(key.secret).toMatch(API_KEY_RE);
    const row = await db().select().from(apiKeys).where(eq(apiKeys.id, key.id)).get();
    expect(row!.keyHash).toBe(await sha256Hex(key.secret));
    expect(Object.values(row!).map(String)).not.toContain(key.secret);
    expect(key.secret.startsWith(row!.prefix)).toBe(true);
    expect(row!.prefix.length).toBeLessThan(16);
    const listed = await listApiKeys(db(), { id: u.id, role: "user" });
    expect(JSON.stringify(listed)).not.toContain(row!.keyHash);
  });

  it("acts as its owner on /api where its scopes allow; another scope is 403, no Origin needed", async () => {
    const u = await createTestUser();
    const reader = await createTestApiKey(u.id, ["read"]);
    const me = await get("/api/auth/me", reader.secret);
    expect(me.status).toBe(200);
    expect(((await me.json()) as { id: number }).id).toBe(u.id);
    expect((await get("/api/contacts", reader.secret)).status).toBe(200);
    const post = await call("/api/contacts", {
      method: "POST",
      json: {},
      headers: { ...bearer(reader.secret), Origin: "https://evil.example" },
    });
    expect(post.status).toBe(403);
    expect(((await post.json()) as { message: string }).message).toContain("contacts:write");
    const writer = await createTestApiKey(u.id, ["contacts:write"]);
    // Cross-origin but cookie-less: the Origin check does not apply to a key; the body is simply invalid.
    const wrote = await call("/api/contacts", {
      method: "POST",
      json: {},
      headers: { ...bearer(writer.secret), Origin: "https://evil.example" },
    });
    expect(wrote.status).toBe(400);
    // Routes no key may use (sign-out, campaigns' writes) are 403 whatever the scopes.
    expect((await call("/api/auth/logout", { method: "POST", json: {}, headers: bearer(writer.secret) })).status).toBe(
      403,
    );
  });

  it("keeps the owner's role: a standard user's key gets 403 on superuser routes, a superuser's 200", async () => {
    const std = await createTestUser();
    const sup = await createTestUser({ role: "superuser" });
    expect((await get("/api/users", (await createTestApiKey(std.id, ["read"])).secret)).status).toBe(403);
    expect((await get("/api/users", (await createTestApiKey(sup.id, ["read"])).secret)).status).toBe(200);
  });

  it("answers 401 for an unknown, revoked or expired key and for an inactive owner", async () => {
    const u = await createTestUser();
    expect((await get("/api/contacts", "helio_" + "A".repeat(43))).status).toBe(401);
    expect((await get("/api/contacts", "not-a-key")).status).toBe(401);
    expect(
      (await get("/api/contacts", (await createTestApiKey(u.id, ["read"], { revoked: true })).secret)).status,
    ).toBe(401);
    expect(
      (await get("/api/contacts", (await createTestApiKey(u.id, ["read"], { expired: true })).secret)).status,
    ).toBe(401);
    const live = await createTestApiKey(u.id, ["read"]);
    expect((await get("/api/contacts", live.secret)).status).toBe(200);
    await db().update(users).set({ isActive: false }).where(eq(users.id, u.id));
    expect((await get("/api/contacts", live.secret)).status).toBe(401);
  });

  it("revokes: the owner their own, a superuser any; another user's key is not found", async () => {
    const owner = await createTestUser();
    const other = await createTestUser();
    const sup = await createTestUser({ role: "superuser" });
    const k1 = await createTestApiKey(owner.id, ["read"]);
    await expect(
      revokeApiKey(db(), k1.id, { userId: other.id, ipAddress: null, role: "user" }, new Date()),
    ).rejects.toThrow(/not found/);
    await revokeApiKey(db(), k1.id, { userId: owner.id, ipAddress: null, role: "user" }, new Date());
    expect((await get("/api/contacts", k1.secret)).status).toBe(401);
    const k2 = await createTestApiKey(owner.id, ["read"]);
    await revokeApiKey(db(), k2.id, { userId: sup.id, ipAddress: null, role: "superuser" }, new Date());
    expect((await get("/api/contacts", k2.secret)).status).toBe(401);
  });

  it("logs use in the activity log at most once a minute per key (last_used_at with it)", async () => {
    const u = await createTestUser();
    const key = await createTestApiKey(u.id, ["read"]);
    for (let i = 0; i < 3; i++) expect((await get("/api/contacts", key.secret)).status).toBe(200);
    const usesLogged = () =>
      db()
        .select()
        .from(activityLog)
        .where(and(eq(activityLog.userId, u.id), eq(activityLog.action, "api_key_used")))
        .all();
    const used = await usesLogged();
    expect(used).toHaveLength(1);
    expect(used[0].details).toMatchObject({ keyId: key.id, method: "GET", path: "/api/contacts" });
    const row = await db().select().from(apiKeys).where(eq(apiKeys.id, key.id)).get();
    expect(row!.lastUsedAt).not.toBeNull();
    // A minute later the next use is logged again.
    await db()
      .update(apiKeys)
      .set({ lastUsedAt: new Date(Date.now() - 61_000) })
      .where(eq(apiKeys.id, key.id));
    await get("/api/contacts", key.secret);
    expect(await usesLogged()).toHaveLength(2);
  });

  it(`limits a key to ${API_KEY_RATE_PER_MINUTE} requests a minute: 429 with Retry-After`, async () => {
    const u = await createTestUser();
    const key = await createTestApiKey(u.id, ["read"]);
    const other = await createTestApiKey(u.id, ["read"]);
    // This minute's counter (and the next, should the clock turn) as if the key had used its limit.
    const start = Math.floor(Date.now() / 60_000) * 60_000;
    for (const w of [start, start + 60_000])
      await db()
        .insert(capCounters)
        .values({
          channel: "apiKey",
          subject: String(key.id),
          windowStart: w,
          hits: API_KEY_RATE_PER_MINUTE,
          expiresAt: w + 60_000,
        });
    const res = await get("/api/contacts", key.secret);
    expect(res.status).toBe(429);
    const retry = Number(res.headers.get("Retry-After"));
    expect(retry).toBeGreaterThanOrEqual(1);
    expect(retry).toBeLessThanOrEqual(60);
    // Per key: another key of the same owner is unaffected.
    expect((await get("/api/contacts", other.secret)).status).toBe(200);
  });

  it("still refuses a cookie session's cross-origin post when a Bearer header rides along", async () => {
    const u = await createTestUser();
    const cookie = await loginAs(u);
    const key = await createTestApiKey(u.id, ["contacts:write"]);
    const res = await call("/api/contacts", {
      method: "POST",
      json: {},
      cookie,
      headers: { ...bearer(key.secret), Origin: "https://evil.example" },
    });
    expect(res.status).toBe(403);
    expect(((await res.json()) as { message: string }).message).toBe("Cross-origin request refused");
  });

  it("maps methods and paths to scopes", () => {
    expect(scopeFor("GET", "/api/campaigns")).toBe("read");
    expect(scopeFor("PUT", "/api/contacts/3")).toBe("contacts:write");
    expect(scopeFor("POST", "/api/messages/send")).toBe("send");
    expect(scopeFor("POST", "/api/v1/leads")).toBe("leads");
    expect(scopeFor("POST", "/api/campaigns")).toBeNull();
    expect(scopeFor("POST", "/api/auth/logout")).toBeNull();
  });
});
