// "Generate with AI" for a campaign step (issue 24): the campaign name is internal and never reaches the copy, the
// description is the brief, the company is named, and the step gets a name. ({{salesRep}} waits until campaign
// steps can fill it: STEP_REP_VARIABLE.) Offline, and against
// the fake OpenAI-compatible server on loopback whose answer echoes the campaign name.
import { describe, expect, it } from "vitest";
import { fakeOpenAiChain, keyAnswering } from "../../tests/ai-chain";
import { openAiCalls } from "../../tests/fakes/control";
import { checkStep } from "~/campaigns/campaign-schema";
import { generateStepContent, STEP_REP_VARIABLE, withoutCampaignName } from "./generate-step-content.server";
import { createOfflineComposer } from "./providers/offline.server";
import { GENERATE_OPTIONS, stepContentInput } from "./step-content-schema";

const CAMPAIGN = "Summer Savings 3-Touch";
const offline = { providers: [createOfflineComposer()], log: () => {} };
const input = (over: Record<string, unknown> = {}) =>
  stepContentInput.parse({
    campaignName: CAMPAIGN,
    campaignDescription: "Battery storage for homeowners who lost power in the summer storms.",
    stepNumber: 1,
    messageType: "sms",
    ...over,
  });

describe("generateStepContent offline", () => {
  for (const messageType of ["sms", "email"] as const)
    for (const stepNumber of [1, 2, 4])
      for (const option of GENERATE_OPTIONS)
        it(`${messageType} step ${stepNumber} ${option}: no campaign name, the company, a step name, saveable`, async () => {
          const d = await generateStepContent(offline, input({ messageType, stepNumber, option }), {
            company: "Bright Roof Solar",
          });
          const all = `${d.subject ?? ""}\n${d.content}`;
          expect(all).not.toMatch(/Summer Savings|3-Touch|\{\{campaignName\}\}/i);
          expect(d.name).toMatch(/^(Introduction|Follow-up|Value|Urgency) (text|email)$/);
          if (messageType === "email") expect(d.content).toMatch(/\nBright Roof Solar$/);
          // The draft can be saved as a step as it is.
          expect(() =>
            checkStep({
              name: d.name,
              messageType,
              subject: d.subject ?? undefined,
              content: d.content,
              delayDays: 0,
              delayHours: 0,
            }),
          ).not.toThrow();
          if (option === "introduction" && stepNumber === 1) expect(all).toMatch(/Bright Roof Solar/);
          if (messageType === "sms") expect(d.content.length).toBeLessThanOrEqual(160);
        });

  it("the description is the brief: a battery campaign talks about batteries, a financing one about paying", async () => {
    const battery = await generateStepContent(offline, input({ stepNumber: 2, messageType: "email", option: "value" }));
    expect(battery.content).toMatch(/batter/i);
    const financing = await generateStepContent(
      offline,
      input({
        campaignDescription: "Financing options for past quotes.",
        stepNumber: 2,
        messageType: "email",
        option: "value",
      }),
    );
    expect(financing.content).toMatch(/loan|lease|pay|full cost/i);
    expect(financing.content).not.toMatch(/batter/i);
  });

  it("names the step from the option and the channel", async () => {
    expect((await generateStepContent(offline, input({ option: "follow-up", stepNumber: 2 }))).name).toBe(
      "Follow-up text",
    );
    expect((await generateStepContent(offline, input({ messageType: "email" }))).name).toBe("Introduction email");
  });
});

describe("generateStepContent with a model", () => {
  it("tells the model the campaign name is internal and gives it the brief and the company", async () => {
    const key = await keyAnswering({ content: "Hi {{firstName}}, a battery keeps your lights on." });
    await generateStepContent(fakeOpenAiChain(key), input(), { company: "Bright Roof Solar" });
    const [call] = await openAiCalls(key);
    const system = call.messages.find((m) => m.role === "system")!.content;
    const user = call.messages.find((m) => m.role === "user")!.content;
    expect(system).toMatch(/campaign name is an internal label[^\n]*never mention it/i);
    expect(system).toContain(STEP_REP_VARIABLE ? "{{salesRep}}" : "do not name a rep");
    expect(system).toContain("Bright Roof Solar");
    expect(user).toContain("Brief (what this campaign is about): Battery storage for homeowners");
    expect(user).toMatch(/Internal campaign name \(for context only, never in the message\): Summer Savings 3-Touch/);
  });

  it("a model that echoes the campaign name: the name never reaches the step (SMS)", async () => {
    const key = await keyAnswering({
      content: "Hi {{firstName}}! Reaching out from Summer Savings 3-Touch: want a free battery check?",
    });
    const d = await generateStepContent(fakeOpenAiChain(key), input(), { company: "Bright Roof Solar" });
    expect(d.provider).toBe("openai");
    expect(d.content).toBe(
      "Hi {{firstName}}! Reaching out from Bright Roof Solar: want a free battery check? Reply STOP to opt out.",
    );
    expect(d.name).toBe("Introduction text");
  });

  it("a model that echoes the campaign name: the name never reaches the step (email, subject, variable, quotes)", async () => {
    const key = await keyAnswering({
      subject: "summer savings 3-touch: your battery check",
      content:
        'Hi {{firstName}},\n\nWelcome to the "Summer Savings 3-Touch" campaign from {{campaignName}}. Summer Savings is about backup power.\n\nBest,\nThe team',
    });
    const d = await generateStepContent(fakeOpenAiChain(key), input({ messageType: "email", stepNumber: 2 }));
    expect(`${d.subject}\n${d.content}`).not.toMatch(/summer savings|3-touch|campaignName/i);
    expect(d.subject).toBe("our team: your battery check");
    expect(d.content).toContain("from our team. our team is about backup power.");
  });

  it("withoutCampaignName leaves other text alone", () => {
    expect(withoutCampaignName("Save on summer bills", CAMPAIGN, "X")).toBe("Save on summer bills");
    expect(withoutCampaignName("From Summer   Savings 3-Touch team", CAMPAIGN, "Acme")).toBe("From Acme");
    expect(withoutCampaignName("Hi", "", "Acme")).toBe("Hi");
  });
});
