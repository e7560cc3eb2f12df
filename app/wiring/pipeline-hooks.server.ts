import { runAlerts } from "~/responders/alerts/run-alerts.server";
import { attributeReplies } from "~/campaigns/attribute-replies.server";
import { holdPausedCampaignMessages } from "~/campaigns/campaign-variables";
import { stopEnrollmentsOnReply } from "~/campaigns/stop-enrollments-on-reply.server";
import { assignNewLeads } from "~/contacts/assign-new-leads.server";
import type { InboundProcessor, PipelineHooks } from "~/messaging/pipeline-hooks";
import { cancelFollowUps } from "~/responders/cancel-follow-ups.server";
import { processReplies } from "~/responders/process-replies.server";
import { emitMessagesFailed, emitMessagesReceived } from "~/webhooks/emit-message-events.server";
import type { ReplyProviders } from "./ai-chain.server";

/**
 * What each feature plugs into the send/receive pipeline (decision 028) — the one place that lists them. A new
 * feature that reacts to replies or sends (lead intake, assignment, appointments) adds its line here; the pipeline
 * does not change.
 *
 * `replies`: the reply processors' providers, built when an inbound batch needs them; null runs the pipeline
 * without auto-responders and smart alerts (the campaign processors still run).
 */
export function pipelineHooks(replies: (() => ReplyProviders) | null): PipelineHooks {
  const inbound: InboundProcessor[] = [
    // Before anything else reads the contact: a new lead with no owner gets the next available user (decision 044).
    { name: "contacts: round-robin a new lead", process: ({ db, now }, ids) => assignNewLeads(db, ids, now) },
    // First: the reply is counted for the campaign that last texted the number, and stamped with it.
    { name: "campaigns: attribute the reply", process: ({ db, now }, ids) => attributeReplies(db, ids, now) },
    // A reply stops the contact's sequences that have stop-on-reply on.
    { name: "campaigns: stop on reply", process: ({ db, now }, ids) => stopEnrollmentsOnReply(db, ids, now) },
    // Outbound webhooks (decision 036): `message.received` to the subscriptions, stamped with the campaign above.
    { name: "webhooks: message.received", process: (ctx, ids) => emitMessagesReceived(ctx, ids) },
  ];
  if (replies) {
    // Then the auto-responders answer, and smart alerts (told whether a responder answered) tell the right person.
    inbound.push({
      name: "auto-responders, then smart alerts",
      process: ({ db, now }, ids) => processReplies({ ...replies(), db, now }, ids, runAlerts),
    });
  }
  return {
    inbound,
    // A person texted the contact: the auto-responders' pending follow-ups would talk over them.
    humanSend: [({ db, now }, phones) => cancelFollowUps(db, phones, now, "Cancelled: a person replied")],
    // A paused or draft campaign's messages wait, held, until it runs again.
    holdSend: [holdPausedCampaignMessages],
    // Outbound webhooks (decision 036): `message.failed` for each message that reached its final failure.
    finalFailure: [(ctx, ids) => emitMessagesFailed(ctx, ids)],
  };
}
