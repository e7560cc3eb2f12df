import { and, asc, eq, sql } from "drizzle-orm";
import type { Db } from "~/db/client.server";
import { suppressions } from "~/db/schema";
import { epochMs } from "~/db/stored-values.server";
import { AppError } from "~/lib/app-error";

export const NOT_A_SUPPRESSED_STAFF_ADDRESS = "That address is not a suppressed staff address";

/**
 * Every staff address alert mail may go to: alert profiles' emails, auto-responders' escalation emails, users and
 * SALES_ALERT_EMAIL, lower-cased as the suppression list stores them. Small tables, read only by the settings screen.
 */
function staffAddresses(salesAlertEmail: string | null) {
  // A UNION over a JSON column's array (json_each as a table): drizzle's union() cannot select from json_each.
  // raw-sql: staff-addresses
  return sql`
    SELECT lower(json_extract(contact_info, '$.email')) FROM alert_profiles
      WHERE json_valid(contact_info) AND json_extract(contact_info, '$.email') IS NOT NULL
    UNION SELECT lower(j.value) FROM auto_responders r, json_each(CASE WHEN json_valid(r.escalation) THEN r.escalation ELSE '{}' END, '$.alertEmails') j
    UNION SELECT lower(email) FROM users
    UNION SELECT lower(${salesAlertEmail ?? ""})`;
}

export type SuppressedStaffAddress = Awaited<ReturnType<typeof listSuppressedStaffAddresses>>[number];

/**
 * Staff addresses on the suppression list (someone clicked unsubscribe in a marketing email to that address). Alerts
 * still reach them (staff mail is never suppressed, decision 022); the screen shows them so it is no surprise, with a
 * way to clear them.
 */
export async function listSuppressedStaffAddresses(db: Db, salesAlertEmail: string | null) {
  return db
    .select({ address: suppressions.address, reason: suppressions.reason, createdAt: epochMs(suppressions.createdAt) })
    .from(suppressions)
    .where(and(eq(suppressions.channel, "email"), sql`${suppressions.address} IN (${staffAddresses(salesAlertEmail)})`))
    .orderBy(asc(suppressions.address))
    .limit(50);
}

/** Takes a staff address off the email suppression list; a homeowner's unsubscribe cannot be cleared from here. */
export async function clearStaffSuppression(db: Db, address: string, salesAlertEmail: string | null) {
  const cleared = await db
    .delete(suppressions)
    .where(
      and(
        eq(suppressions.channel, "email"),
        eq(suppressions.address, address.trim().toLowerCase()),
        sql`${suppressions.address} IN (${staffAddresses(salesAlertEmail)})`,
      ),
    )
    .returning({ address: suppressions.address });
  if (!cleared.length) throw new AppError("not_found", NOT_A_SUPPRESSED_STAFF_ADDRESS);
  return cleared[0];
}
