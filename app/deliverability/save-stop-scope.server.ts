import { eq } from "drizzle-orm";
import { logActivity } from "~/activity/log-activity.server";
import { runBatch, type Db } from "~/db/client.server";
import { orgSettings, users } from "~/db/schema";
import { AppError } from "~/lib/app-error";
import type { Actor } from "~/lib/actor";
import { loadStopScopeSettings } from "~/messaging/org-settings.server";
import type { SmsProvider } from "~/messaging/providers/provider";
import { requireOwnSender } from "~/messaging/providers/require-own-sender.server";
import { INFORMATIONAL_SENDER_KEY, STOP_SCOPE_KEY, type StopScopeSettings } from "~/messaging/stop-scope";

export const INFORMATIONAL_SENDER_FIELD = "informationalSender";

/**
 * A superuser sets what a STOP covers and the informational number appointment texts go from (decision 072). The
 * number must be the account's own and nobody's other sender: a STOP is told apart by the number it reached, so the
 * default or a rep's number would make every STOP to it look informational. Applies to opt-outs from now on (earlier
 * ones keep their scope) and to appointment texts not yet sent. Logged as `set_stop_scope`.
 */
export async function saveStopScope(
  db: Db,
  sms: Pick<SmsProvider, "ownsNumber" | "sender">,
  next: StopScopeSettings,
  actor: Actor,
  now: Date,
) {
  const before = await loadStopScopeSettings(db);
  const number = next.informationalSender;
  if (number && number !== before.informationalSender) {
    if (number === sms.sender)
      throw new AppError("validation", `${number} is the default sending number: informational texts need their own`, {
        field: INFORMATIONAL_SENDER_FIELD,
      });
    const rep = await db.select({ id: users.id }).from(users).where(eq(users.smsSender, number)).get();
    if (rep)
      throw new AppError("validation", `${number} is a rep's sending number: informational texts need their own`, {
        field: INFORMATIONAL_SENDER_FIELD,
      });
    await requireOwnSender(sms, number, INFORMATIONAL_SENDER_FIELD);
  }
  const upsert = (key: string, value: string) =>
    db
      .insert(orgSettings)
      .values({ key, value, updatedAt: now })
      .onConflictDoUpdate({ target: orgSettings.key, set: { value, updatedAt: now } });
  await runBatch(db, [
    upsert(STOP_SCOPE_KEY, next.setting),
    number
      ? upsert(INFORMATIONAL_SENDER_KEY, number)
      : db.delete(orgSettings).where(eq(orgSettings.key, INFORMATIONAL_SENDER_KEY)),
    logActivity(db, "set_stop_scope", {
      ...actor,
      details: { from: before, to: next },
      now,
    }),
  ]);
}
