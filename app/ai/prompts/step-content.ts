import type { AiPrompt } from "../provider";
import type { StepContentInput } from "../step-content-schema";
import { DRAFT_RULES } from "./rules";

const OPTION_BRIEF = {
  introduction: "Introduce the team and the offer warmly.",
  "follow-up": "Follow up politely on earlier messages without repeating them.",
  value: "Share one concrete, honest benefit of solar for the homeowner.",
  urgency: "Give a truthful, gentle reason to act soon (install schedules, incentive changes) without pressure tactics.",
} as const;

export function stepContentPrompt(input: StepContentInput, option: keyof typeof OPTION_BRIEF): AiPrompt {
  const previous = input.previousSteps
    .filter((s) => s.stepNumber < input.stepNumber)
    .map((s) => `Step ${s.stepNumber} (${s.messageType}): ${s.subject ? `[${s.subject}] ` : ""}${s.content.slice(0, 400)}`)
    .join("\n");
  return {
    system: [
      DRAFT_RULES,
      input.messageType === "sms"
        ? 'Answer with JSON only: {"content": "<the SMS text>"}'
        : 'Answer with JSON only: {"subject": "<email subject>", "content": "<plain-text email body with a greeting and sign-off>"}',
    ].join("\n"),
    user: [
      `Write step ${input.stepNumber} (${input.stepPosition} message) of a ${input.messageType === "sms" ? "text message" : "email"} campaign.`,
      `Campaign: ${input.campaignName || "(unnamed)"}`,
      input.campaignDescription && `Description: ${input.campaignDescription}`,
      input.targetAudience && `Audience: ${input.targetAudience}`,
      input.campaignGoal && `Goal: ${input.campaignGoal}`,
      input.tone && `Tone: ${input.tone}`,
      `Angle: ${OPTION_BRIEF[option]}`,
      previous ? `Earlier steps:\n${previous}` : "This is the first message the contact receives.",
    ]
      .filter(Boolean)
      .join("\n"),
    maxTokens: input.messageType === "sms" ? 200 : 700,
  };
}
