import { and, desc, eq, isNull } from "drizzle-orm";
import type { Db } from "~/db/client.server";
import { runBatch } from "~/db/client.server";
import { apiKeys, users, type Role } from "~/db/schema";
import { logActivity } from "~/activity/log-activity.server";
import { AppError } from "~/lib/app-error";
import { randomToken, sha256Hex } from "~/lib/crypto.server";
import type { Actor } from "~/lib/actor";
import { API_KEY_PREFIX, VISIBLE_PREFIX_LENGTH, type ApiKeyScope } from "./api-key-scopes";

export type NewApiKey = { name: string; scopes: ApiKeyScope[]; expiresInDays: number };

/**
 * Creates a key for `actor` and returns its secret — the only time it exists outside the caller: the table keeps
 * its SHA-256 and a short visible prefix. 32 bytes from crypto.getRandomValues (randomToken).
 */
export async function createApiKey(db: Db, input: NewApiKey, actor: Actor, now: Date) {
  if (input.scopes.length === 0) throw new AppError("validation", "Choose at least one scope", { field: "scopes" });
  const secret = API_KEY_PREFIX + randomToken(32);
  const row = {
    userId: actor.userId,
    name: input.name,
    prefix: secret.slice(0, VISIBLE_PREFIX_LENGTH),
    keyHash: await sha256Hex(secret),
    scopes: [...new Set(input.scopes)],
    expiresAt: input.expiresInDays > 0 ? new Date(now.getTime() + input.expiresInDays * 86_400_000) : null,
    createdAt: now,
  };
  const [inserted] = await runBatch(db, [
    db.insert(apiKeys).values(row).returning({ id: apiKeys.id }),
    logActivity(db, "create_api_key", {
      ...actor,
      details: { name: row.name, prefix: row.prefix, scopes: row.scopes },
      now,
    }),
  ]);
  const id = (inserted as { id: number }[])[0].id;
  return { id, secret, prefix: row.prefix, name: row.name };
}

export type ApiKeyListItem = Awaited<ReturnType<typeof listApiKeys>>[number];

/** Keys for the screen: a superuser sees everyone's (with the owner), anyone else their own. Never the hash. */
export function listApiKeys(db: Db, viewer: { id: number; role: Role }) {
  const q = db
    .select({
      id: apiKeys.id,
      name: apiKeys.name,
      prefix: apiKeys.prefix,
      scopes: apiKeys.scopes,
      expiresAt: apiKeys.expiresAt,
      revokedAt: apiKeys.revokedAt,
      lastUsedAt: apiKeys.lastUsedAt,
      createdAt: apiKeys.createdAt,
      userId: apiKeys.userId,
      ownerEmail: users.email,
    })
    .from(apiKeys)
    .innerJoin(users, eq(users.id, apiKeys.userId));
  return (viewer.role === "superuser" ? q : q.where(eq(apiKeys.userId, viewer.id)))
    .orderBy(desc(apiKeys.id))
    .limit(200)
    .all();
}

/** Revokes a key at once (the owner's own, or any key for a superuser); 404 for a key the actor cannot see. */
export async function revokeApiKey(db: Db, id: number, actor: Actor & { role: Role }, now: Date) {
  const mine = actor.role === "superuser" ? undefined : eq(apiKeys.userId, actor.userId);
  const updated = await db
    .update(apiKeys)
    .set({ revokedAt: now })
    .where(and(eq(apiKeys.id, id), isNull(apiKeys.revokedAt), mine))
    .returning({ id: apiKeys.id, name: apiKeys.name, prefix: apiKeys.prefix });
  if (updated.length === 0) throw new AppError("not_found", "API key not found or already revoked");
  await logActivity(db, "revoke_api_key", {
    ...actor,
    details: { keyId: id, name: updated[0].name, prefix: updated[0].prefix },
    now,
  });
  return updated[0];
}
