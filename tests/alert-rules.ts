import { sql } from "drizzle-orm";
import { afterEach } from "vitest";
import { parseBank, parseProfile } from "~/responders/alerts/alert-schema";
import { createBank, createProfile } from "~/responders/alerts/manage-alert-settings.server";
import { uniqueTag } from "./contact-factory";
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

/**
 * An alert profile that emails a fresh staff address and a keyword bank on a fresh word routed to it (high priority,
 * "Pricing Concerns", 20-minute escalation unless `opts` says otherwise; `bank` gets the word). Recorded in `made`.
 */
export async function staffAlertRule(
  made: ReturnType<typeof alertRulesMadeHere>,
  now: Date,
  opts: { profile?: Record<string, unknown>; bank?: (word: string) => Record<string, unknown> } = {},
) {
  const word = uniqueTag("kw");
  const email = `${uniqueTag("staff")}@helio.test`;
  const profile = await createProfile(
    db(),
    parseProfile({
      name: `Closers ${word}`,
      keywords: uniqueTag("pk"),
      email,
      priority: "high",
      escalationTime: 20,
      // The profile's staff at once, with the owner: round-robin gives every replying test contact an owner
      // (decision 044), and these rules test the staff's mail; owner-first tests set their own delay (decision 050).
      ownerEscalationMinutes: 0,
      ...opts.profile,
    }),
    now,
  );
  const bank = await createBank(
    db(),
    parseBank({
      category: "Pricing Concerns",
      keywords: word,
      priority: "high",
      alertProfileId: profile.id,
      ...opts.bank?.(word),
    }),
    now,
  );
  made.profiles.push(profile.id);
  made.banks.push(bank.id);
  return { word, email, profile, bank };
}
