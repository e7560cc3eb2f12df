import { eq } from "drizzle-orm";
import { createApiKey } from "~/auth/manage-api-keys.server";
import type { ApiKeyScope } from "~/auth/api-key-scopes";
import { apiKeys } from "~/db/schema";
import { db } from "./factories";

/** A key for `userId` through the real createApiKey; `expired`/`revoked` backdate it. Returns the secret. */
export async function createTestApiKey(
  userId: number,
  scopes: ApiKeyScope[] = ["read", "contacts:write", "send", "leads"],
  opts: { name?: string; expired?: boolean; revoked?: boolean } = {},
) {
  const now = new Date();
  const key = await createApiKey(
    db(),
    { name: opts.name ?? `Test key ${crypto.randomUUID().slice(0, 6)}`, scopes, expiresInDays: 30 },
    { userId, ipAddress: null },
    now,
  );
  if (opts.expired)
    await db()
      .update(apiKeys)
      .set({ expiresAt: new Date(now.getTime() - 1000) })
      .where(eq(apiKeys.id, key.id));
  if (opts.revoked) await db().update(apiKeys).set({ revokedAt: now }).where(eq(apiKeys.id, key.id));
  return key;
}

export const bearer = (secret: string) => ({ Authorization: `Bearer ${secret}` });
