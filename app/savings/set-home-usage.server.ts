import { and, eq } from "drizzle-orm";
import { logActivity } from "~/activity/log-activity.server";
import { runBatch, type Db } from "~/db/client.server";
import { contacts } from "~/db/schema";
import { loadContactScope, scopeCondition, type ContactViewer } from "~/contacts/contact-scope.server";
import { CONTACT_NOT_FOUND } from "~/contacts/get-contact.server";
import type { Actor } from "~/lib/actor";
import { AppError } from "~/lib/app-error";

export type HomeUsageInput = { monthlyBillCents: number | null; monthlyKwh: number | null; utilityName: string | null };

/**
 * A rep (or the bill reader) records a home's bill, use and utility (decision 074): the savings estimate starts from
 * them at the next message. Only a contact the person sees changes — the scope is in the UPDATE's WHERE — and the
 * change is logged with it in one batch. The bounds are the caller's parse.
 */
export async function setHomeUsage(
  db: Db,
  contactId: number,
  input: HomeUsageInput,
  actor: Actor & ContactViewer,
  now: Date,
) {
  const scope = await loadContactScope(db, actor);
  const inScope = and(eq(contacts.id, contactId), scopeCondition(scope));
  const found = await db.select({ id: contacts.id }).from(contacts).where(inScope).get();
  if (!found) throw new AppError("not_found", CONTACT_NOT_FOUND);
  await runBatch(db, [
    db
      .update(contacts)
      .set({ ...input, updatedAt: now })
      .where(inScope),
    logActivity(db, "set_home_usage", {
      ...actor,
      now,
      details: { contactId, ...input },
    }),
  ]);
}
