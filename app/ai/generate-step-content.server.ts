import { z } from "zod";
import { enforceDraftRules, type Draft } from "./draft-rules";
import { composeStepDraft, defaultOption } from "./offline-composer";
import { stepContentPrompt } from "./prompts/step-content";
import type { AiProviderName } from "./provider";
import { runChain, type AiDeps } from "./run-chain.server";
import type { StepContentInput } from "./step-content-schema";

const answer = z.object({ content: z.string().min(1).max(6000), subject: z.string().max(300).nullable().optional() });

export type StepContentResult = Draft & { provider: AiProviderName; stepPosition: StepContentInput["stepPosition"] };

/** A draft for one campaign step, written by the first provider that answers, then held to the draft rules. */
export async function generateStepContent(deps: AiDeps, input: StepContentInput): Promise<StepContentResult> {
  const option = input.option ?? defaultOption(input.stepPosition);
  const { value, provider } = await runChain(deps, {
    kind: "step-content",
    prompt: stepContentPrompt(input, option),
    schema: answer,
    offline: () => composeStepDraft(input, option, input.seed ?? 0),
  });
  const draft = enforceDraftRules(value, {
    messageType: input.messageType,
    firstTouch: input.stepPosition === "initial",
    allowUnicode: /emoji/i.test(input.tone),
    fallbackSubject: input.campaignName ? `About ${input.campaignName}` : undefined,
  });
  return { ...draft, provider, stepPosition: input.stepPosition };
}
