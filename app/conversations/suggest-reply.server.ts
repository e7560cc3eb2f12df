import { desc, eq } from "drizzle-orm";
import { suggestReplyDraft } from "~/ai/suggest-reply.server";
import type { AiDeps } from "~/ai/run-chain.server";
import { parseCustomFields } from "~/contacts/custom-fields";
import type { Db } from "~/db/client.server";
import { campaignEnrollments, campaigns, contacts } from "~/db/schema";
import { AppError } from "~/lib/app-error";
import { loadOrgSettings } from "~/messaging/org-settings.server";
import { SAVINGS_VARIABLES, savingsVariables } from "~/savings/estimate-savings";
import { estimateContactsSavings } from "~/savings/savings-data.server";
import type { NoteTarget } from "./add-conversation-note.server";
import { getThread } from "./get-conversation.server";

/** The texts a suggestion reads: the thread's latest, enough for the question at hand. */
const SUGGEST_CONTEXT = 12;

/**
 * "Suggest a reply" (issue 27 item 5, decision 047): the conversation's latest texts, the contact's fields and the
 * brief of the campaign it is in, through the AI chain the caller was charged for (chargedAiCall). Returns text for
 * the reply box only: nothing is written, nothing is sent.
 */
export async function suggestReply(ai: AiDeps, db: Db, to: NoteTarget) {
  const [thread, contact, campaign, org, estimates] = await Promise.all([
    getThread(db, to, { limit: SUGGEST_CONTEXT }),
    "contactId" in to
      ? db
          .select({
            firstName: contacts.firstName,
            company: contacts.company,
            city: contacts.city,
            state: contacts.state,
            customFields: contacts.customFields,
          })
          .from(contacts)
          .where(eq(contacts.id, to.contactId))
          .get()
      : null,
    "contactId" in to
      ? db
          .select({ description: campaigns.description })
          .from(campaignEnrollments)
          .innerJoin(campaigns, eq(campaigns.id, campaignEnrollments.campaignId))
          .where(eq(campaignEnrollments.contactId, to.contactId))
          .orderBy(desc(campaignEnrollments.id))
          .limit(1)
          .get()
      : null,
    loadOrgSettings(db),
    "contactId" in to ? estimateContactsSavings(db, [to.contactId]) : null,
  ]);
  if ("contactId" in to && !contact) throw new AppError("not_found", "Contact not found");
  const fields: Record<string, string> = {};
  if (contact) {
    for (const [k, v] of Object.entries({ company: contact.company, city: contact.city, state: contact.state }))
      if (v) fields[k] = v;
    Object.assign(fields, parseCustomFields(contact.customFields));
  }
  // The savings estimate from public data (decision 074), where nothing is typed: numbers the model may use, as an
  // estimate, never a promise (DRAFT_RULES).
  const estimate = "contactId" in to ? estimates?.get(to.contactId) : undefined;
  const savings = estimate ? { ...savingsVariables(estimate), ...pick(fields, SAVINGS_VARIABLES) } : null;
  const suggestion = await suggestReplyDraft(
    ai,
    {
      thread: thread.messages
        .filter((m) => m.channel === "sms" && !m.scheduledFor)
        .map((m) => ({ from: m.direction === "inbound" ? "lead" : "team", text: m.content })),
      firstName: contact?.firstName?.trim() || null,
      fields,
      brief: campaign?.description ?? null,
      savings,
    },
    Object.values(org).map((v) => (typeof v === "string" ? v : null)),
  );
  return suggestion;
}

const pick = (from: Record<string, string>, names: readonly string[]) =>
  Object.fromEntries(names.flatMap((n) => (from[n] ? [[n, from[n]]] : [])));
