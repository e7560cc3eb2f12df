// The streamed Idea Generator answer: the text as the provider writes it (the fake OpenAI-compatible server speaks
// server-sent events on loopback), the fall-through before any text, the offline composer word by word, and the route.
import { describe, expect, it } from "vitest";
import { fakeOpenAiChain, keyAnswering } from "../../tests/ai-chain";
import { failOpenAi, newFakeOpenAiKey, openAiCalls, queueOpenAiAnswer } from "../../tests/fakes/control";
import { call, createTestUser, db, loginAs } from "../../tests/factories";
import { listChatThread } from "./idea-chat.server";
import {
  MAX_ANSWER_CHARS,
  splitAnswer,
  streamChat,
  SUGGESTIONS_MARKER,
  TRUNCATED_ANSWER,
  visibleAnswer,
} from "./stream-chat.server";

const input = { message: "Ideas for a referral campaign", context: "", chatHistory: [] };

describe("streamChat", () => {
  it("passes the model's text on as it streams, holding back the suggestions", async () => {
    const key = await keyAnswering(
      `Ask happy customers to text a neighbor.\n- Offer a gift card\n${SUGGESTIONS_MARKER}\n- How big a reward?\n- Which channel works best?\n- When to ask?\n- One too many`,
    );
    const pieces: string[] = [];
    const answer = await streamChat(fakeOpenAiChain(key), input, 0, (t) => pieces.push(t));
    expect(answer.provider).toBe("openai");
    expect(pieces.length).toBeGreaterThan(2); // it came in pieces, not at once
    expect(pieces.join("")).toBe("Ask happy customers to text a neighbor.\n- Offer a gift card\n");
    expect(answer.response).toBe("Ask happy customers to text a neighbor.\n- Offer a gift card");
    expect(answer.suggestions).toEqual(["How big a reward?", "Which channel works best?", "When to ask?"]);
    const [c] = await openAiCalls(key);
    expect(c.messages[0].content).toContain(SUGGESTIONS_MARKER);
  });

  it("falls through to the offline composer when the endpoint fails before any text", async () => {
    const key = newFakeOpenAiKey();
    await failOpenAi(key, 1, 500);
    const pieces: string[] = [];
    const answer = await streamChat(fakeOpenAiChain(key), input, 0, (t) => pieces.push(t));
    expect(answer.provider).toBe("offline");
    expect(pieces.length).toBeGreaterThan(3);
    expect(pieces.join("").trim()).toBe(answer.response);
    expect(answer.suggestions.length).toBeGreaterThan(0);
  });

  it("stops the model when the reader goes away: the endpoint sees its connection closed midway (issue 23)", async () => {
    const key = newFakeOpenAiKey();
    // 200 deltas, one every 25 ms: ~5 s if nobody stops it.
    await queueOpenAiAnswer(key, "Solar referral idea. ".repeat(80), undefined, 25);
    const reader = new AbortController();
    const pieces: string[] = [];
    const run = streamChat(
      fakeOpenAiChain(key),
      input,
      0,
      (t) => {
        pieces.push(t);
        if (pieces.length === 3) reader.abort(new Error("the client disconnected"));
      },
      reader.signal,
    );
    await expect(run).rejects.toThrow();
    let call;
    for (let i = 0; i < 40; i++) {
      [call] = await openAiCalls(key);
      if (call?.closedByClient) break;
      await new Promise((r) => setTimeout(r, 50));
    }
    expect(call!.closedByClient).toBe(true);
    expect(call!.chunksSent).toBeLessThan(50);
  });

  it("caps the answer at 8,000 characters with a mark, and stops the model there (issue 23)", async () => {
    const key = newFakeOpenAiKey();
    await queueOpenAiAnswer(key, "Knock on doors. ".repeat(20_000)); // 320,000 characters
    const pieces: string[] = [];
    const answer = await streamChat(fakeOpenAiChain(key), input, 0, (t) => pieces.push(t));
    expect(answer.response.endsWith(TRUNCATED_ANSWER.trim())).toBe(true);
    expect(answer.response.length).toBeLessThanOrEqual(MAX_ANSWER_CHARS + TRUNCATED_ANSWER.length);
    expect(pieces.join("").length).toBeLessThanOrEqual(MAX_ANSWER_CHARS + TRUNCATED_ANSWER.length);
  });

  it("never shows a marker that is still arriving", () => {
    expect(visibleAnswer("Hello SUGG")).toBe("Hello ");
    expect(visibleAnswer("Hello S")).toBe("Hello ");
    expect(visibleAnswer("Hello")).toBe("Hello");
    expect(visibleAnswer(`Hi\n${SUGGESTIONS_MARKER}\n- a`)).toBe("Hi\n");
    expect(splitAnswer("Just text")).toEqual({ response: "Just text", suggestions: [] });
  });
});

describe("POST /idea-generator/stream", () => {
  it("streams the answer and stores the turn; an empty message is a 204", async () => {
    const user = await createTestUser();
    const cookie = await loginAs(user);
    const form = new URLSearchParams({
      message: "How do I handle the objection that solar is too expensive?",
      context: "",
    });
    const res = await call("/idea-generator/stream", { method: "POST", body: form, cookie });
    expect(res.status).toBe(200);
    expect(res.headers.get("Content-Type")).toMatch(/^text\/plain/);
    const text = await res.text();
    expect(text.length).toBeGreaterThan(20);
    expect(text).not.toContain(SUGGESTIONS_MARKER);
    const thread = await listChatThread(db(), user.id);
    expect(thread.map((m) => m.role)).toEqual(["user", "assistant"]);
    expect(thread[1].content).toBe(splitAnswer(text).response);
    expect(
      (await call("/idea-generator/stream", { method: "POST", body: new URLSearchParams({ message: "  " }), cookie }))
        .status,
    ).toBe(204);
  });
});
