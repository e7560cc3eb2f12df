// How the lead webhook calls the speed-to-lead triggers (issue 26, decision 037): create the contact, then hand its
// id, the lead's source and the request's `now` to runLeadTriggers with the request's db and queue
// (`context.domain()` in a route). Tests use this to post "a lead" without the webhook.
import type { ContactFields } from "~/contacts/contact-row.server";
import { createContact } from "~/contacts/create-contact.server";
import { runLeadTriggers, type LeadTriggerDeps } from "~/campaigns/run-lead-triggers.server";
import { contactFields } from "./contact-factory";

export async function postTestLead(
  deps: LeadTriggerDeps,
  lead: { source: string | null; now: Date; userId: number; fields?: Partial<ContactFields> },
) {
  const contact = await createContact(
    deps.db,
    contactFields(lead.fields),
    { userId: lead.userId, ipAddress: null },
    lead.now,
  );
  const triggered = await runLeadTriggers(deps, { contactId: contact.id, source: lead.source, now: lead.now });
  return { contact, triggered };
}
