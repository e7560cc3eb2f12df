import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { aiClassifications } from "~/db/schema";
import { db } from "../../tests/factories";
import { classifyByLexicon, classifyReply } from "./classify-reply.server";
import { createOfflineComposer } from "./providers/offline.server";
import { createWorkersAi } from "./providers/workers-ai.server";

// Real-looking replies to solar texts, with the intent a person would give them.
const REPLIES: Array<[string, string, string]> = [
  ["STOP", "opt_out_like", "negative"],
  ["Please remove me from your list", "opt_out_like", "negative"],
  ["stop texting me, I never signed up for this", "opt_out_like", "negative"],
  ["Unsubscribe", "opt_out_like", "negative"],
  ["Not interested, thanks", "not_interested", "negative"],
  ["We already have solar panels, no thank you", "not_interested", "negative"],
  ["No.", "not_interested", "negative"],
  ["Can someone come by Thursday after 3pm?", "appointment_request", "positive"],
  ["Yes please call me tomorrow morning", "appointment_request", "positive"],
  ["I'd like to schedule a consultation", "appointment_request", "positive"],
  ["How much would a system cost for a 2000 sq ft house?", "pricing_question", "neutral"],
  ["Do you offer financing or a lease?", "pricing_question", "neutral"],
  ["What about the federal tax credit?", "pricing_question", "neutral"],
  ["I rent, so I don't think I can", "objection", "negative"],
  ["Our HOA is pretty strict about the roof", "objection", "neutral"],
  ["Sounds like a scam honestly", "objection", "negative"],
  ["Yes, I'm interested! Tell me more", "interested", "positive"],
  ["Sure, send me some info", "interested", "positive"],
  ["Who is this?", "other", "neutral"],
  ["👍", "other", "neutral"],
];

describe("classifyByLexicon (offline)", () => {
  it.each(REPLIES)("%s → %s / %s", (text, intent, sentiment) => {
    const r = classifyByLexicon(text);
    expect(r.intent).toBe(intent);
    expect(r.sentiment).toBe(sentiment);
    expect(r.confidence).toBeGreaterThanOrEqual(0);
    expect(r.confidence).toBeLessThanOrEqual(100);
  });

  it("is less sure of texts it cannot place", () => {
    expect(classifyByLexicon("Who is this?").confidence).toBeLessThan(classifyByLexicon("STOP").confidence);
  });
});

describe("classifyReply", () => {
  it("falls through a failing binding to the lexicon, records the call and says who answered", async () => {
    const failing = createWorkersAi({
      run: () => Promise.reject(new Error("Binding AI needs to be run remotely")),
    });
    const logs: string[] = [];
    const r = await classifyReply(
      { db: db(), providers: [failing, createOfflineComposer()], log: (e) => logs.push(`${e.provider}: ${e.error}`) },
      "How much does it cost per month?",
    );
    expect(r).toMatchObject({ intent: "pricing_question", provider: "offline" });
    expect(logs).toEqual(["workers-ai: Binding AI needs to be run remotely"]);
    const [row] = await db().select().from(aiClassifications).where(eq(aiClassifications.id, r.id!));
    expect(row).toMatchObject({
      intent: "pricing_question",
      provider: "offline",
      confidence: r.confidence,
      analysisMs: r.analysisMs,
      markedCorrect: null,
    });
    expect(row.textPreview).toBe("How much does it cost per month?");
  });

  it("takes a model's valid JSON answer", async () => {
    const model = createWorkersAi({
      run: () =>
        Promise.resolve({ response: '```json\n{"intent":"objection","sentiment":"negative","confidence":77}\n```' }),
    });
    const r = await classifyReply({ db: db(), providers: [model, createOfflineComposer()] }, "my roof is old", {
      record: false,
    });
    expect(r).toMatchObject({
      intent: "objection",
      sentiment: "negative",
      confidence: 77,
      provider: "workers-ai",
      id: null,
    });
  });

  it("refuses a model's invented intent and uses the lexicon", async () => {
    const model = createWorkersAi({
      run: () => Promise.resolve({ response: '{"intent":"maybe","sentiment":"neutral","confidence":50}' }),
    });
    const r = await classifyReply({ db: db(), providers: [model, createOfflineComposer()], log: () => {} }, "STOP", {
      record: false,
    });
    expect(r).toMatchObject({ intent: "opt_out_like", provider: "offline" });
  });
});
