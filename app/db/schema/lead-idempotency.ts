import { sqliteTable, integer, text, primaryKey, index } from "drizzle-orm/sqlite-core";
import { createdAt, parentId } from "./_columns";
import { apiKeys } from "./api-keys";

/**
 * The first answer to a lead post's Idempotency-Key, per API key (decision 035); written with the leads. status 0 is
 * a claim whose answer is not recorded yet (re-claimable after LEAD_CLAIM_LEASE_MS); the cron purges rows past their
 * retention (RETENTION in app/jobs/purge-old-rows.server.ts, through the created_at index; migration 0055).
 */
export const leadIdempotency = sqliteTable(
  "lead_idempotency",
  {
    apiKeyId: parentId("api_key_id", () => apiKeys.id),
    idempotencyKey: text("idempotency_key").notNull(),
    requestHash: text("request_hash").notNull(),
    status: integer("status").notNull(),
    response: text("response").notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    primaryKey({ columns: [t.apiKeyId, t.idempotencyKey] }),
    index("lead_idempotency_created_at_idx").on(t.createdAt),
  ],
);
