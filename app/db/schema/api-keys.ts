import { sqliteTable, text, index, uniqueIndex } from "drizzle-orm/sqlite-core";
import { autoId, createdAt, parentId, utc } from "./_columns";
import { users } from "./users";

/**
 * API keys (issue 26, decision 035): a key acts as its owner, within its scopes. Only the SHA-256 of the secret is
 * stored (`keyHash`), like sessions; `prefix` is the secret's first characters, shown to tell keys apart.
 */
export const apiKeys = sqliteTable(
  "api_keys",
  {
    id: autoId(),
    userId: parentId("user_id", () => users.id),
    name: text("name").notNull(),
    prefix: text("prefix").notNull(),
    keyHash: text("key_hash").notNull(),
    scopes: text("scopes", { mode: "json" }).notNull().$type<string[]>(),
    expiresAt: utc("expires_at"), // null = never
    revokedAt: utc("revoked_at"),
    // Written at most once a minute per key (with its activity entry), never once per request.
    lastUsedAt: utc("last_used_at"),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex("api_keys_key_hash_uq").on(t.keyHash), index("api_keys_user_id_idx").on(t.userId)],
);

export type ApiKey = typeof apiKeys.$inferSelect;
