import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { extractVariables } from "~/messaging/render";
import { smsSegments } from "~/messaging/segments";
import { enforceDraftRules, makesPromise, SOURCED_VARIABLES } from "./draft-rules";
import { generateEmail } from "./generate-email.server";
import { generateStepContent } from "./generate-step-content.server";
import { createOfflineComposer } from "./providers/offline.server";
import { createWorkersAi } from "./providers/workers-ai.server";
import { GENERATE_OPTIONS, stepContentInput, stepPositionFor } from "./step-content-schema";

// Campaign steps may also name the rep: their messages are sent as the campaign's owner (decision 027).
const SOURCED = new Set<string>([...SOURCED_VARIABLES, "salesRep"]);
const offline = { providers: [createOfflineComposer()] };

function expectRules(d: { content: string; subject: string | null }, type: "sms" | "email", firstTouch: boolean) {
  for (const v of extractVariables(d.content + (d.subject ?? ""))) expect(SOURCED.has(v), v).toBe(true);
  expect(d.content).not.toMatch(/\[[A-Za-z ]+\]/);
  expect(makesPromise(d.content)).toBe(false);
  if (type === "sms") {
    const seg = smsSegments(d.content);
    expect(seg.encoding).toBe("GSM-7");
    expect(seg.units).toBeLessThanOrEqual(160);
    expect(d.content.includes("Reply STOP to opt out")).toBe(firstTouch);
    expect(d.subject).toBeNull();
  } else {
    expect(d.subject?.trim()).toBeTruthy();
  }
}

describe("stepPosition", () => {
  it("is initial for step 1, follow-up up to step 3, nurture after", () => {
    expect([1, 2, 3, 4, 9].map(stepPositionFor)).toEqual(["initial", "follow-up", "follow-up", "nurture", "nurture"]);
    // A client cannot override it.
    expect(stepContentInput.parse({ stepNumber: 5, messageType: "sms", stepPosition: "initial" }).stepPosition).toBe(
      "nurture",
    );
  });
});

describe("offline drafts obey the rules for every step position, type and option", () => {
  for (const messageType of ["sms", "email"] as const)
    for (const stepNumber of [1, 2, 3, 4, 6])
      for (const option of GENERATE_OPTIONS)
        it(`${messageType} step ${stepNumber} ${option}`, async () => {
          const input = stepContentInput.parse({
            campaignName: "Summer Savings Push",
            campaignDescription:
              "Reach homeowners whose summer bills spiked and offer a free roof assessment. Second sentence.",
            stepNumber,
            messageType,
            option,
            campaignGoal: "book consultations",
            targetAudience: "homeowners in Phoenix",
            previousSteps: Array.from({ length: stepNumber - 1 }, (_, i) => ({
              stepNumber: i + 1,
              messageType,
              content: "Earlier step",
            })),
          });
          const d = await generateStepContent(offline, input);
          expect(d.provider).toBe("offline");
          expectRules(d, messageType, stepNumber === 1);
          // The campaign name is internal (decision 025).
          expect(`${d.subject ?? ""} ${d.content}`).not.toMatch(/Summer Savings Push/);
        });

  it("varies across options and positions, and is deterministic for a seed", async () => {
    const base = { campaignName: "Spring", messageType: "sms" as const };
    const texts = new Set<string>();
    for (const option of GENERATE_OPTIONS)
      for (const stepNumber of [1, 2, 4])
        texts.add(
          (await generateStepContent(offline, stepContentInput.parse({ ...base, option, stepNumber }))).content,
        );
    expect(texts.size).toBeGreaterThanOrEqual(8);
    const a = await generateStepContent(offline, stepContentInput.parse({ ...base, stepNumber: 2, seed: 7 }));
    const b = await generateStepContent(offline, stepContentInput.parse({ ...base, stepNumber: 2, seed: 7 }));
    expect(a.content).toBe(b.content);
  });
});

describe("model output is held to the rules", () => {
  const bad =
    "Hi {{first_name}} \u2014 it\u2019s {{rep_name}} from [Company Name]! We \u201cguarantee\u201d you will save $2,000 a year. " +
    "Solar panels can make your energy costs more predictable and add value to your home, and our team handles permits and installation from start to finish. " +
    "Text STOP to end. Use code {{discountCode}} today! \u{1F31E}";

  it("SMS: GSM-7, variables fixed, promise dropped, length cut, opt-out on a first touch", async () => {
    const model = createWorkersAi({ run: () => Promise.resolve({ response: JSON.stringify({ content: bad }) }) });
    const d = await generateStepContent(
      { providers: [model] },
      stepContentInput.parse({ campaignName: "X", stepNumber: 1, messageType: "sms" }),
    );
    expect(d.provider).toBe("workers-ai");
    expectRules(d, "sms", true);
    expect(d.content.startsWith("Hi {{firstName}} - it's from!")).toBe(true);
    expect(d.content).toMatch(/ Reply STOP to opt out\.$/);
  });

  it("the ended federal credit (§25D) is never offered; net-metering credits still may be mentioned (issue 28)", async () => {
    for (const t of [
      "Lock in the 30% federal tax credit before it ends!",
      "You may qualify for the federal solar tax credit.",
      "Thirty percent solar credit available now.",
      "Claim the ITC this year.",
    ])
      expect(makesPromise(t), t).toBe(true);
    for (const t of [
      "Net metering may credit the extra power on your utility bill.",
      "Local incentives may apply: {{incentiveAmount}}.",
      "Solar can start with little or no money down, depending on your credit.",
    ])
      expect(makesPromise(t), t).toBe(false);
    const model = createWorkersAi({
      run: () =>
        Promise.resolve({
          response: JSON.stringify({
            content:
              "Hi {{firstName}}, grab the 30% federal tax credit now. Solar can make your energy costs more predictable.",
          }),
        }),
    });
    const d = await generateStepContent(
      { providers: [model] },
      stepContentInput.parse({ campaignName: "X", stepNumber: 2, messageType: "sms" }),
    );
    expect(d.content).toBe("Solar can make your energy costs more predictable.");
  });

  it("email: a subject is always there", async () => {
    const model = createWorkersAi({
      run: () => Promise.resolve({ response: JSON.stringify({ content: bad, subject: "" }) }),
    });
    const d = await generateStepContent(
      { providers: [model] },
      stepContentInput.parse({ campaignName: "Fall Promo", stepNumber: 2, messageType: "email" }),
    );
    expectRules(d, "email", false);
    expect(d.subject).toBe("A quick note about solar for your home");
  });

  it("generate-email answers a subject and content offline", async () => {
    const e = await generateEmail(offline, {
      prompt: "Follow up with leads who asked about financing",
      type: "follow-up",
      context: "",
    });
    expect(e.subject).toBeTruthy();
    expect(e.content).toMatch(/follow up/i);
  });

  it("any text becomes a GSM-7 SMS of at most 160 units (never over 320 when asked for more)", () => {
    fc.assert(
      fc.property(
        fc.string({ maxLength: 600 }),
        fc.boolean(),
        fc.integer({ min: 1, max: 1000 }),
        (text, firstTouch, max) => {
          const d = enforceDraftRules({ content: text }, { messageType: "sms", firstTouch, maxLength: max });
          const seg = smsSegments(d.content);
          expect(seg.encoding).toBe("GSM-7");
          expect(seg.units).toBeLessThanOrEqual(Math.min(320, Math.max(40, max)));
          if (firstTouch) expect(d.content).toMatch(/Reply STOP to opt out\.$/);
        },
      ),
      { numRuns: 300 },
    );
  });
});
