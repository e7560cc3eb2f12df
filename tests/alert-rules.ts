import { sql } from "drizzle-orm";
import { afterEach } from "vitest";
import { db } from "./factories";

/**
 * The alert profiles and keyword banks a test file creates: push their ids, and after each test they are switched
 * off (test files may share one D1, and an active rule would match another file's replies).
 */
export function alertRulesMadeHere() {
  const made = { profiles: [] as number[], banks: [] as number[] };
  afterEach(async () => {
    await db().run(
      sql`UPDATE alert_profiles SET is_active = 0 WHERE id IN (SELECT value FROM json_each(${JSON.stringify(made.profiles.splice(0))}))`,
    );
    await db().run(
      sql`UPDATE keyword_banks SET is_active = 0 WHERE id IN (SELECT value FROM json_each(${JSON.stringify(made.banks.splice(0))}))`,
    );
  });
  return made;
}
