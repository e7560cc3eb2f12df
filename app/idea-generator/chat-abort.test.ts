// POST /api/ai/chat hands the request's signal to the chain: a client that leaves stops the model (issue 23).
import { describe, expect, it } from "vitest";
import { fakeOpenAiChain } from "../../tests/ai-chain";
import { newFakeOpenAiKey, openAiCalls, queueOpenAiAnswer } from "../../tests/fakes/control";
import { chatWithAssistant } from "./chat-with-assistant.server";

describe("chat with the client gone", () => {
  it("aborts the provider call (the endpoint sees the connection closed) and asks no other provider", async () => {
    const key = newFakeOpenAiKey();
    await queueOpenAiAnswer(key, JSON.stringify({ response: "Late answer", suggestions: [] }), 3000);
    const client = new AbortController();
    setTimeout(() => client.abort(new Error("the client disconnected")), 200);
    const started = Date.now();
    const { providers } = fakeOpenAiChain(key, 10_000);
    await expect(
      chatWithAssistant(
        { providers, log: () => {}, signal: client.signal },
        { message: "Referral ideas?", context: "", chatHistory: [] },
      ),
    ).rejects.toThrow();
    expect(Date.now() - started).toBeLessThan(2000);
    let call;
    for (let i = 0; i < 40 && !call?.closedByClient; i++) {
      await new Promise((r) => setTimeout(r, 50));
      [call] = await openAiCalls(key);
    }
    expect(call!.closedByClient).toBe(true);
  });
});
