import { z } from "zod";

export const STEP_POSITIONS = ["initial", "follow-up", "nurture"] as const;
export const GENERATE_OPTIONS = ["introduction", "follow-up", "value", "urgency"] as const;

/** SPEC §7: stepPosition is initial for step 1, follow-up up to step 3, nurture after. */
export function stepPositionFor(stepNumber: number): (typeof STEP_POSITIONS)[number] {
  return stepNumber <= 1 ? "initial" : stepNumber <= 3 ? "follow-up" : "nurture";
}

const text = (max: number) => z.string().trim().max(max).optional().default("");

/** POST /api/ai/generate-step-content (SPEC §7), plus `option` (the button's choice) and an optional `seed`. */
export const stepContentInput = z
  .object({
    campaignName: z.string().trim().max(200).default(""),
    campaignDescription: text(2000),
    stepNumber: z.coerce.number().int().min(1).max(100),
    messageType: z.enum(["sms", "email"]),
    previousSteps: z
      .array(
        z.object({
          stepNumber: z.coerce.number().int().min(1).max(100),
          messageType: z.enum(["sms", "email"]),
          content: z.string().max(5000).default(""),
          subject: z.string().max(300).nullable().optional(),
        }),
      )
      .max(50)
      .default([]),
    targetAudience: text(300),
    campaignGoal: text(300),
    stepPosition: z.enum(STEP_POSITIONS).optional(),
    option: z.enum(GENERATE_OPTIONS).optional(),
    tone: text(50),
    seed: z.coerce.number().int().min(0).max(1_000_000).optional(),
  })
  // The position always follows the step number (a client cannot make step 5 an "initial" touch).
  .transform((v) => ({ ...v, stepPosition: stepPositionFor(v.stepNumber) }));

export type StepContentInput = z.output<typeof stepContentInput>;
