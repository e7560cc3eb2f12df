import { runContactTriggers } from "~/campaigns/run-lead-triggers.server";
import type { ContactEventHooks } from "~/contacts/contact-event-hooks";
import type { JobQueue } from "~/lib/job-queue";

/**
 * Who hears of a contact's pipeline events (decision 059), given the request's queue: the sequence rules of
 * /lead-triggers — a contact moved to a stage, or an appointment missed, starts the sequences whose rule matches,
 * their first step dispatched at once like a new lead's.
 */
export const contactEventHooks = (queue: JobQueue): ContactEventHooks => ({
  stageChanged: ({ db, now }, contactIds, stage) =>
    runContactTriggers({ db, queue }, { contactIds, on: "stage.changed", key: stage, now }),
  appointmentNoShow: ({ db, now }, contactId) =>
    runContactTriggers({ db, queue }, { contactIds: [contactId], on: "appointment.no_show", key: "", now }),
  tagAdded: ({ db, now }, contactIds, tag) =>
    runContactTriggers({ db, queue }, { contactIds, on: "tag.added", key: tag, now }),
});
