import { z } from "zod";
import { STEP_VARIABLES } from "~/campaigns/campaign-schema";
import { enforceDraftRules, fixVariables, normalizeTypography, type Draft } from "./draft-rules";
import { composeStepDraft, defaultOption, type ComposeOption, type StepBrand } from "./offline-composer";
import { stepContentPrompt } from "./prompts/step-content";
import type { AiProviderName } from "./provider";
import { logRefusedDraft, runChain, type AiDeps } from "./run-chain.server";
import type { StepContentInput } from "./step-content-schema";

const answer = z.object({ content: z.string().min(1).max(6000), subject: z.string().max(300).nullable().optional() });

export type StepContentResult = Draft & {
  name: string;
  provider: AiProviderName;
  stepPosition: StepContentInput["stepPosition"];
};

const OPTION_NAME: Record<ComposeOption, string> = {
  introduction: "Introduction",
  "follow-up": "Follow-up",
  value: "Value",
  urgency: "Urgency",
};

/** The name a generated step gets when its name field is empty: "Follow-up text", "Value email". */
export function stepNameFor(option: ComposeOption, messageType: "sms" | "email"): string {
  return `${OPTION_NAME[option]} ${messageType === "sms" ? "text" : "email"}`;
}

const escapeRe = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/**
 * The campaign name is internal (decision 025): a homeowner never sees "Summer Savings 3-Touch". Every spelling of
 * it a model might echo, and {{campaignName}}, becomes the company (or "our team").
 */
export function withoutCampaignName(text: string, campaignName: string, replacement: string): string {
  let out = text.replace(/\{\{\s*campaignName\s*\}\}/g, replacement);
  const name = campaignName.replace(/\s+/g, " ").trim();
  if (name.length < 3) return out;
  const short = name.replace(/\s+(?:\d+[- ]?(?:touch|step)s?|campaign|sequence|drip|push|blast|series)$/i, "").trim();
  for (const n of short.length >= 6 && short !== name ? [name, short] : [name]) {
    const flexible = escapeRe(n).replace(/ /g, "\\s+");
    out = out.replace(
      new RegExp(`(["'\u201C\u2018]?)\\b${flexible}(?:\\s+(?:campaign|team|program|promotion))?\\b\\1`, "gi"),
      replacement,
    );
  }
  return out;
}

/**
 * The rep is named as {{salesRep}} where a campaign step can fill it: a step's messages are sent as the campaign's
 * owner (dispatch-due-steps sets created_by, decision 027), so the token renders from the sender like any send's.
 * The draft rules (which keep only always-filled variables) are bypassed for this one token.
 */
export const STEP_REP_VARIABLE = STEP_VARIABLES.has("salesRep");
const REP_HOLD = "HelioSalesRepHold";
const holdRep = (s: string) => (STEP_REP_VARIABLE ? s.replace(/\{\{\s*salesRep\s*\}\}/g, REP_HOLD) : s);
const restoreRep = (s: string) => s.split(REP_HOLD).join("{{salesRep}}");

/**
 * A draft for one campaign step, written by the first provider that answers, then held to the draft rules. The
 * campaign description is the brief and the company comes from the organisation settings; the campaign name never
 * reaches the copy. A draft with a URL, email address or phone number that the user's own brief does not contain is
 * refused (issue 23): the offline composer's draft is returned instead and the refusal logged.
 */
export async function generateStepContent(
  deps: AiDeps,
  input: StepContentInput,
  brand: Pick<StepBrand, "company"> = {},
): Promise<StepContentResult> {
  const option = input.option ?? defaultOption(input.stepPosition);
  const company = brand.company?.trim() || null;
  const offline = () => composeStepDraft(input, option, input.seed ?? 0, { company, rep: STEP_REP_VARIABLE });
  const { value, provider } = await runChain(deps, {
    kind: "step-content",
    prompt: stepContentPrompt(input, option, { company, rep: STEP_REP_VARIABLE }),
    schema: answer,
    offline,
  });
  // Variables are normalised first so a model's {campaign} or [Campaign Name] is caught as {{campaignName}}.
  const scrub = (s: string) =>
    withoutCampaignName(fixVariables(normalizeTypography(holdRep(s))), input.campaignName, company ?? "our team");
  const rules = {
    messageType: input.messageType,
    firstTouch: input.stepPosition === "initial",
    allowUnicode: /emoji/i.test(input.tone),
    fallbackSubject: company ? `A note from ${company}` : undefined,
    allowedSources: [
      company,
      input.campaignName,
      input.campaignDescription,
      input.targetAudience,
      input.campaignGoal,
      ...input.previousSteps.flatMap((s) => [s.content, s.subject]),
    ],
  };
  const held = (d: { content: string; subject?: string | null }) =>
    enforceDraftRules({ content: scrub(d.content), subject: d.subject == null ? d.subject : scrub(d.subject) }, rules);
  let draft = held(value);
  let answeredBy = provider;
  if (draft.foreign?.length) {
    await logRefusedDraft(deps, "step-content", provider, draft.foreign);
    draft = held(offline());
    answeredBy = "offline";
  }
  return {
    content: restoreRep(draft.content),
    subject: draft.subject == null ? null : restoreRep(draft.subject),
    name: stepNameFor(option, input.messageType),
    provider: answeredBy,
    stepPosition: input.stepPosition,
  };
}
