import { sqliteTable, integer, text, primaryKey } from "drizzle-orm/sqlite-core";
import { createdAt, parentId } from "./_columns";
import { apiKeys } from "./api-keys";

/** The first answer to a lead post's Idempotency-Key, per API key (decision 035); written with the leads. */
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
  (t) => [primaryKey({ columns: [t.apiKeyId, t.idempotencyKey] })],
);
