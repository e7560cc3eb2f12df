// AI spend caps (issue 23, decision 021) against the fake OpenAI-compatible server on loopback: a number's replies
// get at most `aiClassifyPerNumber` model classifications an hour, and the organisation's daily budget of model
// calls, once spent, sends every task (classification, drafts) to the offline composer — counted and shown.
import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { DAY, DEFAULT_CAP_LIMITS, HOUR } from "~/caps/caps";
import { readCapUse } from "~/caps/hit-cap.server";
import { classifierFor } from "~/wiring/ai-chain.server";
import { uniquePhone } from "../../tests/contact-factory";
import { fakeOpenAiBase, newFakeOpenAiKey, openAiCalls, queueOpenAiAnswer } from "../../tests/fakes/control";
import { db } from "../../tests/factories";
import { generateStepContent } from "./generate-step-content.server";
import { orgAiBudget } from "./org-ai-budget.server";
import { createOfflineComposer } from "./providers/offline.server";
import { createOpenAi } from "./providers/openai.server";
import { stepContentInput } from "./step-content-schema";

const ANSWER = JSON.stringify({ intent: "interested", sentiment: "positive", confidence: 88 });
/** A day of its own (the budget's counter is the organisation's: another test's calls must not land in it). */
// Each test spends the organisation's budget on a day of its own. Even days only: a test that moves to "the next day"
// lands on an odd one, which no other test's day can be (a shared day once left the budget already spent).
const ownDay = () => new Date(Date.UTC(2031, 0, 1) + Math.floor(Math.random() * 1500) * 2 * DAY + 15 * HOUR);
const envFor = (key: string) => ({ OPENAI_API_KEY: key, OPENAI_BASE_URL: fakeOpenAiBase(), OPENAI_MODEL: "gpt-test" });

describe("AI classification caps", () => {
  it(`a number's replies get ${DEFAULT_CAP_LIMITS.aiClassifyPerNumber} model classifications an hour, then the keyword classifier`, async () => {
    const key = newFakeOpenAiKey();
    for (let i = 0; i < 8; i++) await queueOpenAiAnswer(key, ANSWER);
    const at = ownDay();
    const classify = classifierFor(
      envFor(key),
      db(),
      () => at,
      async () => DEFAULT_CAP_LIMITS,
    );
    const phone = uniquePhone();
    const providers = [];
    for (let i = 0; i < 7; i++)
      providers.push(((await classify(`Sounds good, call me ${i}`, null, phone)) as { provider?: string }).provider);
    expect(await openAiCalls(key)).toHaveLength(5);
    expect(providers).toEqual(["openai", "openai", "openai", "openai", "openai", "offline", "offline"]);
    // Another number still gets the model; so does this one in the next hour.
    await classify("Yes please", null, uniquePhone());
    await classifierFor(
      envFor(key),
      db(),
      () => new Date(at.getTime() + HOUR),
      async () => DEFAULT_CAP_LIMITS,
    )("Yes", null, phone);
    expect(await openAiCalls(key)).toHaveLength(7);
    expect(
      await db().get(sql`SELECT hits FROM cap_counters WHERE channel = 'held:ai_classify' AND subject = ${phone}`),
    ).toEqual({ hits: 2 });
  });

  it("the organisation's daily budget, once spent, answers offline for every task until the next UTC day", async () => {
    const key = newFakeOpenAiKey();
    for (let i = 0; i < 10; i++) await queueOpenAiAnswer(key, ANSWER);
    const at = ownDay();
    const limits = async () => ({ ...DEFAULT_CAP_LIMITS, aiDailyBudget: 3 });
    const classify = classifierFor(envFor(key), db(), () => at, limits);
    for (let i = 0; i < 4; i++) await classify(`Interested ${i}`, null, uniquePhone());
    expect(await openAiCalls(key)).toHaveLength(3);
    // A draft on a user's behalf shares the budget: offline too, without a model call.
    const deps = {
      providers: [createOpenAi({ apiKey: key, baseUrl: fakeOpenAiBase(), model: "gpt-test" }), createOfflineComposer()],
      log: () => {},
      budget: orgAiBudget(db(), () => at, limits),
    };
    const draft = await generateStepContent(
      deps,
      stepContentInput.parse({ campaignName: "Spring", stepNumber: 1, messageType: "sms" }),
    );
    expect(draft.provider).toBe("offline");
    expect(await openAiCalls(key)).toHaveLength(3);
    expect(
      await readCapUse(db(), "aiDailyBudget", "org", { ...DEFAULT_CAP_LIMITS, aiDailyBudget: 3 }, at),
    ).toMatchObject({ used: 3, remaining: 0 });
    const held = await db().get<{ hits: number }>(
      sql`SELECT hits FROM cap_counters WHERE channel = 'held:ai_budget' AND subject = 'org' AND window_start = ${Math.floor(at.getTime() / DAY) * DAY}`,
    );
    expect(held?.hits).toBe(2);
    // The next day the model answers again.
    await classifierFor(
      envFor(key),
      db(),
      () => new Date(at.getTime() + DAY),
      limits,
    )("Interested", null, uniquePhone());
    expect(await openAiCalls(key)).toHaveLength(4);
  });
});
