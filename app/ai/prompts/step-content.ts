import type { AiPrompt } from "../provider";
import type { StepContentInput } from "../step-content-schema";
import { DRAFT_RULES } from "./rules";

const OPTION_BRIEF = {
  introduction: "Introduce the team and the offer warmly.",
  "follow-up": "Follow up politely on earlier messages without repeating them.",
  value: "Share one concrete, honest benefit of solar for the homeowner.",
  urgency:
    "Give a truthful, gentle reason to act soon (install schedules, incentive changes) without pressure tactics.",
} as const;

export function stepContentPrompt(
  input: StepContentInput,
  option: keyof typeof OPTION_BRIEF,
  brand: { company?: string | null; rep?: boolean } = {},
): AiPrompt {
  const previous = input.previousSteps
    .filter((s) => s.stepNumber < input.stepNumber)
    .map(
      (s) => `Step ${s.stepNumber} (${s.messageType}): ${s.subject ? `[${s.subject}] ` : ""}${s.content.slice(0, 400)}`,
    )
    .join("\n");
  return {
    system: [
      DRAFT_RULES,
      "The campaign name is an internal label for the sales team: never mention it or {{campaignName}} in the message.",
      [
        brand.rep
          ? "Write as the sales rep and name them with {{salesRep}} (the rep's name, filled in when sent), e.g. \"{{salesRep}} with <company>\" or as the sign-off; never invent a rep's name."
          : "Write on behalf of the company; do not name a rep.",
        brand.company ? `The company is ${brand.company}; name it.` : "Do not invent a company name.",
      ].join(" "),
      input.messageType === "sms"
        ? 'Answer with JSON only: {"content": "<the SMS text>"}'
        : 'Answer with JSON only: {"subject": "<email subject>", "content": "<plain-text email body with a greeting and sign-off>"}',
    ].join("\n"),
    user: [
      `Write step ${input.stepNumber} (${input.stepPosition} message) of a ${input.messageType === "sms" ? "text message" : "email"} campaign.`,
      input.campaignDescription
        ? `Brief (what this campaign is about): ${input.campaignDescription}`
        : "Brief: a free, no-obligation solar assessment for the homeowner.",
      brand.company && `Company: ${brand.company}`,
      `Internal campaign name (for context only, never in the message): ${input.campaignName || "(unnamed)"}`,
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
