import { desc, sql } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import { hitNamedCap, readCapUse } from "~/caps/hit-cap.server";
import type { CapLimits } from "~/caps/caps";
import { loadCapLimits } from "~/caps/load-cap-limits.server";
import { PHONE_REASONS } from "~/contacts/phone";
import { runBatch, type Db } from "~/db/client.server";
import { contacts } from "~/db/schema";
import { ProviderError, type LineType, type SmsProvider } from "~/messaging/providers/provider";

/** Numbers looked up per run (the tick runs it every ten minutes: at most 14,400 a day, under the daily cap). */
export const LINE_TYPE_CHUNK = 100;
const CONCURRENCY = 6;

/**
 * The due numbers, newest first, through the partial index contacts_line_type_due_idx (its WHERE, word for word; a
 * `phone IS NOT NULL` there would make SQLite give up the index: the column is NOT NULL, so it folds the term away).
 */
export const selectDueLineTypes = (db: Db, limit: number) =>
  db
    .select({ id: contacts.id, phone: contacts.phone })
    .from(contacts)
    .where(sql`line_type_checked_at IS NULL AND sendable = 1`)
    .orderBy(desc(contacts.id))
    .limit(limit);

export type LineTypeDeps = {
  db: Db;
  sms: SmsProvider;
  now: Date;
  capLimits?: () => Promise<CapLimits>;
};

/**
 * The line-type lookup (issue 29 item 6, decision 069), a task of the cron tick: the newest contacts whose number was
 * never looked up, at most LINE_TYPE_CHUNK a run and no more than what is left of the day's `lineTypeLookupsPerDay`
 * (0, the default, turns it off — each lookup is a paid Twilio request). A landline is marked not sendable with its
 * reason, so every send path skips it and the pre-send check counts it; a mobile or VoIP number keeps its type. A
 * number Twilio cannot look up (not a real number) is marked `unknown` and not asked again; a busy or failing Twilio
 * ends the run, and the rest wait for the next one. Only with a provider that has a lookup (not the local outbox).
 */
export async function checkLineTypes(deps: LineTypeDeps, chunk = LINE_TYPE_CHUNK) {
  const { db, sms, now } = deps;
  if (!sms.lookupLineType) return { looked: 0, landlines: 0 };
  const limits = await (deps.capLimits ?? (() => loadCapLimits(db)))();
  if (limits.lineTypeLookupsPerDay === 0) return { looked: 0, landlines: 0 };
  const { remaining } = await readCapUse(db, "lineTypeLookupsPerDay", "org", limits, now);
  const due = remaining > 0 ? await selectDueLineTypes(db, Math.min(chunk, remaining)) : [];
  if (!due.length) return { looked: 0, landlines: 0 };
  // Counted before asking: a run cut short still paid for what it asked.
  await hitNamedCap(db, "lineTypeLookupsPerDay", "org", limits, now, due.length);

  const found: { id: number; phone: string; type: LineType }[] = [];
  let next = 0;
  let stopped = false;
  const worker = async () => {
    while (!stopped && next < due.length) {
      const c = due[next++];
      try {
        found.push({ id: c.id, phone: c.phone, type: (await sms.lookupLineType!(c.phone)).type });
      } catch (err) {
        if (err instanceof ProviderError && err.kind === "permanent")
          found.push({ id: c.id, phone: c.phone, type: "unknown" });
        else stopped = true;
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(CONCURRENCY, due.length) }, worker));
  if (!found.length) return { looked: 0, landlines: 0 };
  const statements: BatchItem<"sqlite">[] = found.map((f) =>
    db
      .update(contacts)
      .set(
        f.type === "landline"
          ? { lineType: f.type, lineTypeCheckedAt: now, sendable: false, unsendableReason: PHONE_REASONS.landline }
          : { lineType: f.type, lineTypeCheckedAt: now },
      )
      // Only the number that was looked up: one changed meanwhile stays due.
      .where(sql`${contacts.id} = ${f.id} AND ${contacts.phone} = ${f.phone}`),
  );
  await runBatch(db, statements);
  return { looked: found.length, landlines: found.filter((f) => f.type === "landline").length };
}
