import { sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { autoId, createdAt, parentId, utc } from "./_columns";
import { users } from "./users";

// Two-factor recovery codes (migration 0048): ten per enrolment, shown once; only the SHA-256 is stored (the codes
// carry 50 random bits each, so a fast hash is enough). A used code keeps its row with used_at set.
export const recoveryCodes = sqliteTable(
  "recovery_codes",
  {
    id: autoId(),
    userId: parentId("user_id", () => users.id),
    codeHash: text("code_hash").notNull(),
    usedAt: utc("used_at"),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex("recovery_codes_user_hash_uq").on(t.userId, t.codeHash)],
);
