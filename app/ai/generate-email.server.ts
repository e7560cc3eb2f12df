import { z } from "zod";
import { enforceDraftRules } from "./draft-rules";
import { composeStepDraft, type ComposeOption } from "./offline-composer";
import { emailPrompt } from "./prompts/email";
import type { AiProviderName } from "./provider";
import { logRefusedDraft, runChain, type AiDeps } from "./run-chain.server";
import { stepContentInput } from "./step-content-schema";

/** POST /api/ai/generate-email (SPEC §7): prompt, type, context. */
export const emailInput = z.object({
  prompt: z.string().trim().min(1, "Describe the email you want").max(2000),
  type: z.string().trim().max(50).optional().default(""),
  context: z.string().trim().max(2000).optional().default(""),
  seed: z.coerce.number().int().min(0).max(1_000_000).optional(),
});
export type EmailInput = z.output<typeof emailInput>;

const answer = z.object({ subject: z.string().max(300).default(""), content: z.string().min(1).max(8000) });

function optionFor(type: string, prompt: string): ComposeOption {
  const t = `${type} ${prompt}`.toLowerCase();
  if (/follow/.test(t)) return "follow-up";
  if (/urgen|deadline|limited|last chance/.test(t)) return "urgency";
  if (/value|benefit|educat|newsletter|tip/.test(t)) return "value";
  return "introduction";
}

export async function generateEmail(
  deps: AiDeps,
  input: EmailInput,
): Promise<{ subject: string; content: string; provider: AiProviderName }> {
  const option = optionFor(input.type, input.prompt);
  const offlineDraft = () => {
    const draft = composeStepDraft(
      stepContentInput.parse({
        campaignName: "",
        campaignDescription: `${input.prompt}. ${input.context}`.slice(0, 2000),
        stepNumber: option === "introduction" ? 1 : 2,
        messageType: "email",
        campaignGoal: input.prompt.slice(0, 300),
      }),
      option,
      input.seed ?? 0,
    );
    return { subject: draft.subject ?? "", content: draft.content };
  };
  const { value, provider } = await runChain(deps, {
    kind: "email",
    prompt: emailPrompt(input.prompt, input.type, input.context),
    schema: answer,
    offline: offlineDraft,
  });
  // Contact details only from the user's own brief (issue 23); a draft with others gives way to the composer's.
  const rules = {
    messageType: "email" as const,
    firstTouch: false,
    allowedSources: [input.prompt, input.context, input.type],
  };
  const draft = enforceDraftRules(value, rules);
  if (draft.foreign?.length) {
    await logRefusedDraft(deps, "email", provider, draft.foreign);
    const fallback = enforceDraftRules(offlineDraft(), rules);
    return { subject: fallback.subject ?? "", content: fallback.content, provider: "offline" };
  }
  return { subject: draft.subject ?? "", content: draft.content, provider };
}
