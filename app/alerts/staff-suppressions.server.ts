import { sql } from "drizzle-orm";
import type { Db } from "~/db/client.server";
import { AppError } from "~/lib/app-error";

export const NOT_A_SUPPRESSED_STAFF_ADDRESS = "That address is not a suppressed staff address";

/**
 * Every staff address alert mail may go to: alert profiles' emails, auto-responders' escalation emails, users and
 * SALES_ALERT_EMAIL, lower-cased as the suppression list stores them. Small tables, read only by the settings screen.
 */
function staffAddresses(salesAlertEmail: string | null) {
  return sql`
    SELECT lower(json_extract(contact_info, '$.email')) FROM alert_profiles
      WHERE json_valid(contact_info) AND json_extract(contact_info, '$.email') IS NOT NULL
    UNION SELECT lower(j.value) FROM auto_responders r, json_each(CASE WHEN json_valid(r.escalation) THEN r.escalation ELSE '{}' END, '$.alertEmails') j
    UNION SELECT lower(email) FROM users
    UNION SELECT lower(${salesAlertEmail ?? ""})`;
}

export type SuppressedStaffAddress = { address: string; reason: string; createdAt: number };

/**
 * Staff addresses on the suppression list (someone clicked unsubscribe in a marketing email to that address). Alerts
 * still reach them (staff mail is never suppressed, decision 022); the screen shows them so it is no surprise, with a
 * way to clear them.
 */
export async function listSuppressedStaffAddresses(db: Db, salesAlertEmail: string | null): Promise<SuppressedStaffAddress[]> {
  return db.all<SuppressedStaffAddress>(sql`
    SELECT address, reason, created_at AS createdAt FROM suppressions
    WHERE channel = 'email' AND address IN (${staffAddresses(salesAlertEmail)}) ORDER BY address LIMIT 50`);
}

/** Takes a staff address off the email suppression list; a homeowner's unsubscribe cannot be cleared from here. */
export async function clearStaffSuppression(db: Db, address: string, salesAlertEmail: string | null) {
  const cleared = await db.all<{ address: string }>(sql`
    DELETE FROM suppressions WHERE channel = 'email' AND address = ${address.trim().toLowerCase()} AND address IN (${staffAddresses(salesAlertEmail)})
    RETURNING address`);
  if (!cleared.length) throw new AppError("not_found", NOT_A_SUPPRESSED_STAFF_ADDRESS);
  return cleared[0];
}
