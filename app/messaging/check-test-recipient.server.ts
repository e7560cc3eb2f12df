import { and, eq, isNotNull } from "drizzle-orm";
import { HELD } from "~/caps/caps";
import { hitNamedCap } from "~/caps/hit-cap.server";
import { loadCapLimits } from "~/caps/load-cap-limits.server";
import { recordHeld } from "~/caps/record-held.server";
import { normalizePhone } from "~/contacts/phone";
import { deriveTimeZone } from "~/contacts/us-geo";
import type { Db } from "~/db/client.server";
import { users } from "~/db/schema";
import { AppError } from "~/lib/app-error";
import { isWithinSendWindow, nextAllowedSendTime } from "./quiet-hours";
import type { Actor } from "~/lib/actor";

export const NOT_TEAM_PHONE = "Test texts go only to your own number or a team member's (the phone on their profile)";
export const NOT_TEAM_EMAIL = "Test emails go only to your own address or a team member's (their sign-in email)";
/** Team members read for the phone match: a team, not a contact list. */
const MAX_TEAM = 1000;

/**
 * The checks on a manual test before anything is written (issue 23): the recipient is on the team (a user's phone
 * or sign-in email, active accounts only), a test text is inside the recipient's calling hours (the number's time
 * zone; the strictest window when unknown), and the user has test sends left this hour (`testSendPerUser`).
 */
export async function checkTestRecipient(db: Db, actor: Actor, to: { phone: string } | { email: string }, now: Date) {
  if ("email" in to) {
    const user = await db
      .select({ id: users.id })
      .from(users)
      .where(and(eq(users.email, to.email.toLowerCase()), eq(users.isActive, true)))
      .get();
    if (!user) throw new AppError("validation", NOT_TEAM_EMAIL, { field: "email" });
  } else {
    const team = await db
      .select({ phone: users.phone })
      .from(users)
      .where(and(isNotNull(users.phone), eq(users.isActive, true)))
      .limit(MAX_TEAM);
    if (!team.some((u) => u.phone !== null && normalizePhone(u.phone) === to.phone))
      throw new AppError("validation", NOT_TEAM_PHONE, { field: "phone" });
    const zone = deriveTimeZone({ phone: to.phone });
    if (!isWithinSendWindow(now, zone, null)) {
      const next = nextAllowedSendTime(now, zone, null);
      const at = new Intl.DateTimeFormat("en-US", {
        timeZone: zone ?? "UTC",
        hour: "numeric",
        minute: "2-digit",
        timeZoneName: "short",
      }).format(next);
      throw new AppError("validation", `Quiet hours for this number: test texts can be sent from ${at}`, {
        field: "phone",
        title: "Quiet hours",
      });
    }
  }
  const limits = await loadCapLimits(db);
  const cap = await hitNamedCap(db, "testSendPerUser", String(actor.userId), limits, now);
  if (!cap.allowed) {
    await recordHeld(db, HELD.testSend, `user:${actor.userId}`, now, { limit: cap.limit }, actor.userId);
    const retryAfter = Math.max(1, Math.ceil((cap.resetAt - now.getTime()) / 1000));
    throw new AppError(
      "rate_limited",
      `Test send limit reached (${cap.limit} per hour). Try again in ${Math.ceil(retryAfter / 60)} minutes.`,
      {
        retryAfter,
        title: "Too many test sends",
      },
    );
  }
}
