import { z } from "zod";
import { enforceDraftRules, type Draft } from "./draft-rules";
import { composeStepDraft, defaultOption } from "./offline-composer";
import { stepContentPrompt } from "./prompts/step-content";
import type { AiProviderName } from "./provider";
import { runChain, type AiDeps } from "./run-chain.server";
import type { StepContentInput } from "./step-content-schema";

const answer = z.object({ content: z.string().min(1).max(6000), subject: z.string().max(300).nullable().optional() });

export type StepContentResult = Draft & { provider: AiProviderName; stepPosition: StepContentInput["stepPosition"] };

/**
 * A draft for one campaign step, written by the first provider that answers, then held to the draft rules. A draft
 * with a URL, email address or phone number that the user's own brief does not contain is refused (issue 23): the
 * offline composer's draft is returned instead and the refusal logged.
 */
export async function generateStepContent(deps: AiDeps, input: StepContentInput): Promise<StepContentResult> {
  const option = input.option ?? defaultOption(input.stepPosition);
  const offline = () => composeStepDraft(input, option, input.seed ?? 0);
  const { value, provider } = await runChain(deps, { kind: "step-content", prompt: stepContentPrompt(input, option), schema: answer, offline });
  const rules = {
    messageType: input.messageType,
    firstTouch: input.stepPosition === "initial",
    allowUnicode: /emoji/i.test(input.tone),
    fallbackSubject: input.campaignName ? `About ${input.campaignName}` : undefined,
    allowedSources: [input.campaignName, input.campaignDescription, input.targetAudience, input.campaignGoal, ...input.previousSteps.flatMap((s) => [s.content, s.subject])],
  };
  const draft = enforceDraftRules(value, rules);
  if (draft.foreign?.length) {
    await Promise.resolve(deps.log?.({ kind: "step-content", provider, error: `draft refused: contact details nobody wrote (${draft.foreign.slice(0, 3).join(", ")})` })).catch(() => undefined);
    const { foreign: _, ...fallback } = enforceDraftRules(offline(), rules);
    return { ...fallback, provider: "offline", stepPosition: input.stepPosition };
  }
  const { foreign: _, ...clean } = draft;
  return { ...clean, provider, stepPosition: input.stepPosition };
}
