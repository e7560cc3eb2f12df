import { describe, expect, it } from "vitest";
import {
  failOpenAi,
  fakeOpenAiBase,
  newFakeOpenAiKey,
  openAiCalls,
  queueOpenAiAnswer,
} from "../../tests/fakes/control";
import { generateStepContent } from "./generate-step-content.server";
import { createOfflineComposer } from "./providers/offline.server";
import { createOpenAi } from "./providers/openai.server";
import { createWorkersAi, type AiBinding } from "./providers/workers-ai.server";
import { aiProvidersFor } from "./registry.server";
import { stepContentInput } from "./step-content-schema";

// A fake Workers AI binding per behaviour (the binding is an object handed to the provider, as env.AI would be).
const throwing: AiBinding = { run: () => Promise.reject(new Error("Binding AI needs to be run remotely")) };
const hanging: AiBinding = { run: () => new Promise(() => {}) };
const answering = (response: unknown): AiBinding => ({ run: () => Promise.resolve({ response }) });

const input = stepContentInput.parse({
  campaignName: "Spring Solar",
  campaignDescription: "Free roof assessments for homeowners.",
  stepNumber: 1,
  messageType: "sms",
});

function chain(binding: AiBinding, key: string, opts: { openAiTimeoutMs?: number } = {}) {
  const logs: string[] = [];
  return {
    logs,
    deps: {
      providers: [
        createWorkersAi(binding, { timeoutMs: 300 }),
        createOpenAi({
          apiKey: key,
          baseUrl: fakeOpenAiBase(),
          model: "gpt-test",
          timeoutMs: opts.openAiTimeoutMs ?? 5_000,
        }),
        createOfflineComposer(),
      ],
      log: (e: { provider: string; error: string }) => logs.push(`${e.provider}: ${e.error}`),
    },
  };
}

describe("the provider chain", () => {
  it("Workers AI answers when it can", async () => {
    const key = newFakeOpenAiKey();
    const { deps, logs } = chain(answering('{"content":"Hi {{firstName}}, solar question for you?"}'), key);
    const r = await generateStepContent(deps, input);
    expect(r.provider).toBe("workers-ai");
    expect(r.content).toBe("Hi {{firstName}}, solar question for you? Reply STOP to opt out.");
    expect(logs).toEqual([]);
    expect(await openAiCalls(key)).toHaveLength(0);
  });

  it("a throwing binding falls through to the OpenAI-compatible endpoint, spoken in its wire format", async () => {
    const key = newFakeOpenAiKey();
    await queueOpenAiAnswer(key, '{"content":"Hello {{firstName}}, want a free look at solar for your roof?"}');
    const { deps, logs } = chain(throwing, key);
    const r = await generateStepContent(deps, input);
    expect(r.provider).toBe("openai");
    expect(r.content).toContain("want a free look at solar");
    expect(logs).toEqual(["workers-ai: Binding AI needs to be run remotely"]);
    const [call] = await openAiCalls(key);
    expect(call.model).toBe("gpt-test");
    expect(call.response_format).toEqual({ type: "json_object" });
    expect(call.messages.map((m) => m.role)).toEqual(["system", "user"]);
    expect(call.messages[1].content).toContain("Spring Solar");
  });

  // Every way both remote providers can fail ends at the offline composer, each failure logged in order.
  it.each([
    {
      name: "a binding that times out, then malformed JSON from the endpoint",
      binding: hanging,
      arrange: (key: string) => queueOpenAiAnswer(key, "Sure! Here is your SMS: Hi there {not json"),
      expected: [/^workers-ai: timed out/, /^openai: /],
    },
    {
      name: "malformed binding output, then an HTTP 500",
      binding: answering('{"text":"wrong field"}'),
      arrange: (key: string) => failOpenAi(key, 1, 500),
      expected: [
        /^workers-ai: answer does not match the schema/,
        /^openai: OpenAI-compatible endpoint answered HTTP 500$/,
      ],
    },
    {
      name: "a throwing binding, then an endpoint slower than its timeout",
      binding: throwing,
      arrange: (key: string) => queueOpenAiAnswer(key, '{"content":"too late"}', 3_000),
      openAiTimeoutMs: 200,
      expected: [/^workers-ai: Binding AI needs to be run remotely$/, /^openai: timed out/],
    },
  ])("$name: the offline composer answers", async ({ binding, arrange, openAiTimeoutMs, expected }) => {
    const key = newFakeOpenAiKey();
    await arrange(key);
    const { deps, logs } = chain(binding, key, { openAiTimeoutMs });
    const r = await generateStepContent(deps, input);
    expect(r.provider).toBe("offline");
    expect(r.content).toMatch(/Reply STOP to opt out\.$/);
    expect(logs).toHaveLength(expected.length);
    expected.forEach((pattern, i) => expect(logs[i]).toMatch(pattern));
  });

  it("the registry builds the chain from configuration, offline always last", () => {
    expect(aiProvidersFor({}).map((p) => p.name)).toEqual(["offline"]);
    expect(aiProvidersFor({ AI: throwing, OPENAI_API_KEY: "sk-x" }).map((p) => p.name)).toEqual([
      "workers-ai",
      "openai",
      "offline",
    ]);
    expect(
      aiProvidersFor({ OPENAI_BASE_URL: "http://127.0.0.1:1/v1", OPENAI_API_KEY: " " }).map((p) => p.name),
    ).toEqual(["openai", "offline"]);
    expect(aiProvidersFor({ AI: throwing, AI_DISABLE_WORKERS_AI: "1" }).map((p) => p.name)).toEqual(["offline"]);
  });
});
