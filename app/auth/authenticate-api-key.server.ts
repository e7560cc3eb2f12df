import { and, eq, isNull, lte, or } from "drizzle-orm";
import type { Db } from "~/db/client.server";
import { apiKeys, users } from "~/db/schema";
import { logActivity } from "~/activity/log-activity.server";
import { AppError } from "~/lib/app-error";
import { sha256Hex } from "~/lib/crypto.server";
import { API_KEY_RE, API_KEY_TOUCH_MS, type ApiKeyScope } from "./api-key-scopes";
import { SIGNED_IN_COLUMNS, type SignedIn } from "./session.server";

/** A Bearer key's caller: its owner as the guard's SignedIn, and the key. */
export type KeyCaller = SignedIn & { apiKey: { id: number; name: string; scopes: ApiKeyScope[] } };

const UNAUTHORIZED = "Invalid, expired or revoked API key";

/** `Authorization: Bearer <secret>` → the secret, or null when the header is absent or another scheme. */
export function bearerToken(request: Request): string | null {
  const m = /^Bearer\s+(\S+)\s*$/i.exec(request.headers.get("Authorization") ?? "");
  return m ? m[1] : null;
}

/**
 * The key's owner for a Bearer secret: one seek on the hash (joined to the owner). Unknown, revoked or expired key,
 * or an inactive owner → 401. The last-used time and an `api_key_used` activity entry are written together at most
 * once a minute per key (API_KEY_TOUCH_MS), so a busy integration costs one write a minute, not one per request.
 */
export async function authenticateApiKey(
  db: Db,
  secret: string,
  meta: { ipAddress: string | null; method: string; path: string },
  now: Date,
): Promise<KeyCaller> {
  if (!API_KEY_RE.test(secret)) throw new AppError("unauthorized", UNAUTHORIZED);
  const found = await db
    .select({
      key: {
        id: apiKeys.id,
        name: apiKeys.name,
        scopes: apiKeys.scopes,
        expiresAt: apiKeys.expiresAt,
        revokedAt: apiKeys.revokedAt,
        lastUsedAt: apiKeys.lastUsedAt,
      },
      user: SIGNED_IN_COLUMNS,
    })
    .from(apiKeys)
    .innerJoin(users, eq(users.id, apiKeys.userId))
    .where(eq(apiKeys.keyHash, await sha256Hex(secret)))
    .get();
  const t = now.getTime();
  if (
    !found ||
    found.key.revokedAt !== null ||
    (found.key.expiresAt !== null && found.key.expiresAt.getTime() <= t) ||
    !found.user.isActive
  )
    throw new AppError("unauthorized", UNAUTHORIZED);
  const { key } = found;
  if (key.lastUsedAt === null || t - key.lastUsedAt.getTime() >= API_KEY_TOUCH_MS) {
    // Conditional: of two racing requests in the same minute, one updates the row and writes the entry.
    const cutoff = new Date(t - API_KEY_TOUCH_MS);
    const touched = await db
      .update(apiKeys)
      .set({ lastUsedAt: now })
      .where(and(eq(apiKeys.id, key.id), or(isNull(apiKeys.lastUsedAt), lte(apiKeys.lastUsedAt, cutoff))))
      .returning({ id: apiKeys.id });
    if (touched.length > 0)
      await logActivity(db, "api_key_used", {
        userId: found.user.id,
        ipAddress: meta.ipAddress,
        details: { keyId: key.id, name: key.name, method: meta.method, path: meta.path },
        now,
      });
  }
  const { totpEnabledAt, ...user } = found.user;
  return {
    ...user,
    twoFactorEnabled: totpEnabledAt !== null,
    sessionId: `key:${key.id}`,
    // A key is a credential of its own: the sign-in's two-factor step does not apply to it.
    mustEnrolTwoFactor: false,
    apiKey: { id: key.id, name: key.name, scopes: key.scopes as ApiKeyScope[] },
  };
}
