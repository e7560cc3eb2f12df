import type { Db } from "~/db/client.server";
import type { JobQueue } from "~/lib/job-queue";
import type { StoredLead } from "~/contacts/ingest-leads.server";
import { runLeadTriggers } from "~/campaigns/run-lead-triggers.server";
import { emitLeadCreated } from "~/webhooks/emit-webhook-event.server";

/**
 * The `lead.created` hook point (issue 26, decisions 035 and 037): called once per lead the webhook stored (a new
 * contact, or an existing one it updated), after the write committed. What reacts to a new lead plugs in here:
 * the speed-to-lead trigger rules (decision 037) and the outbound `lead.created` webhook (decision 036). A reaction's
 * failure is logged and does not undo the stored lead (the vendor's retry would be a replay, not a second lead).
 */
export function onLeadCreated(deps: { db: Db; queue: JobQueue; now: Date }) {
  return async (lead: StoredLead): Promise<void> => {
    try {
      await runLeadTriggers(deps, { contactId: lead.contactId, source: lead.source, now: deps.now });
    } catch (err) {
      console.error("lead.created: trigger rules failed", lead.contactId, err);
    }
    try {
      await emitLeadCreated(deps, {
        contactId: lead.contactId,
        phone: lead.phone,
        source: lead.source,
        created: lead.status === "created",
      });
    } catch (err) {
      console.error("lead.created: webhook emit failed", lead.contactId, err);
    }
  };
}
