import { runAlerts } from "~/responders/alerts/run-alerts.server";
import { answerAppointmentReplies } from "~/appointments/answer-appointment-replies.server";
import { attributeReplies } from "~/campaigns/attribute-replies.server";
import { holdPausedCampaignMessages } from "~/campaigns/campaign-variables";
import { stopEnrollmentsOnReply } from "~/campaigns/stop-enrollments-on-reply.server";
import { assignNewLeads } from "~/contacts/assign-new-leads.server";
import { assignRepliesToRepNumbers } from "~/contacts/assign-replies-to-rep-numbers.server";
import type { InboundProcessor, PipelineHooks } from "~/messaging/pipeline-hooks";
import { cancelFollowUps } from "~/responders/cancel-follow-ups.server";
import { processReplies } from "~/responders/process-replies.server";
import { emitMessagesFailed, emitMessagesReceived } from "~/webhooks/emit-message-events.server";
import { enqueueHotLeadPush, enqueueReplyPushes } from "~/push/push-jobs";
import { watchCarrierFiltering, type PauseAlerts } from "~/deliverability/watch-carrier-filtering.server";
import type { ReplyProviders } from "./ai-chain.server";
import { savingsVariableProvider } from "~/savings/savings-variables.server";

/** Smart alerts, then a hot lead's push to its owner (decision 049): a job, off the inbound path. */
const runAlertsThenPush: typeof runAlerts = async (deps, src, classify, opts) => {
  const outcome = await runAlerts(deps, src, classify, opts);
  if (outcome) await enqueueHotLeadPush(deps.queue, outcome.alertId);
  return outcome;
};

/**
 * What each feature plugs into the send/receive pipeline (decision 028) — the one place that lists them. A new
 * feature that reacts to replies or sends (lead intake, assignment, appointments) adds its line here; the pipeline
 * does not change.
 *
 * `replies`: the reply processors' providers, built when an inbound batch needs them; null runs the pipeline
 * without auto-responders and smart alerts (the campaign processors still run). `alerts`: where the deliverability
 * autopilot tells that it paused a number (none: it pauses and logs, and tells nobody).
 */
export function pipelineHooks(
  replies: (() => ReplyProviders) | null,
  alerts: PauseAlerts = { alertEmail: null, publicBaseUrl: "" },
): PipelineHooks {
  const inbound: InboundProcessor[] = [
    // A reply to a rep's own number is that rep's lead (decision 045): before round-robin, which then has only the
    // replies to shared numbers left.
    {
      name: "contacts: a reply to a rep's number goes to that rep",
      process: ({ db, now }, ids) => assignRepliesToRepNumbers(db, ids, now),
    },
    // Before anything else reads the contact: a new lead with no owner gets the next available user (decision 044).
    { name: "contacts: round-robin a new lead", process: ({ db, now }, ids) => assignNewLeads(db, ids, now) },
    // First: the reply is counted for the campaign that last texted the number, and stamped with it.
    { name: "campaigns: attribute the reply", process: ({ db, now }, ids) => attributeReplies(db, ids, now) },
    // A reply stops the contact's sequences that have stop-on-reply on.
    { name: "campaigns: stop on reply", process: ({ db, now }, ids) => stopEnrollmentsOnReply(db, ids, now) },
    // Outbound webhooks (decision 036): `message.received` to the subscriptions, stamped with the campaign above.
    { name: "webhooks: message.received", process: (ctx, ids) => emitMessagesReceived(ctx, ids) },
    // Web Push (decision 049): a reply in its owner's queue, pushed to their phones by a job.
    { name: "push: a reply to its owner", process: ({ queue }, ids) => enqueueReplyPushes(queue, ids) },
    // A bare C/Y/N/R to an appointment's text (decision 055) is answered here; the processors below do not see it.
    { name: "appointments: C/Y, N and R answers", process: (ctx, ids) => answerAppointmentReplies(ctx, ids) },
  ];
  if (replies) {
    // Then the auto-responders answer, and smart alerts (told whether a responder answered) tell the right person.
    inbound.push({
      name: "auto-responders, then smart alerts",
      process: ({ db, now }, ids) => processReplies({ ...replies(), db, now }, ids, runAlertsThenPush),
    });
  }
  return {
    inbound,
    // A person texted the contact: the auto-responders' pending follow-ups would talk over them.
    humanSend: [({ db, now }, phones) => cancelFollowUps(db, phones, now, "Cancelled: a person replied")],
    // A paused or draft campaign's messages wait, held, until it runs again.
    holdSend: [holdPausedCampaignMessages],
    // Outbound webhooks (decision 036): `message.failed` for each message that reached its final failure.
    // Then the deliverability autopilot (decision 065): carriers filtering a number pause its marketing.
    finalFailure: [(ctx, ids) => emitMessagesFailed(ctx, ids), (ctx, ids) => watchCarrierFiltering(ctx, ids, alerts)],
    // The Solar variables (decision 074): computed from the contact's bill and its state's public figures.
    variables: [savingsVariableProvider],
  };
}
