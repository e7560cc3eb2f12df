import { createOfflineComposer } from "~/ai/providers/offline.server";
import { createOpenAi } from "~/ai/providers/openai.server";
import { fakeOpenAiBase, newFakeOpenAiKey, queueOpenAiAnswer } from "./fakes/control";

/** The AI chain the AI tests run: the fake OpenAI-compatible server under `key` first, then the offline composer. */
export const fakeOpenAiChain = (key: string, timeoutMs = 5_000) => ({
  providers: [
    createOpenAi({ apiKey: key, baseUrl: fakeOpenAiBase(), model: "gpt-test", timeoutMs }),
    createOfflineComposer(),
  ],
  log: () => {},
});

/** A fresh key on the fake OpenAI-compatible server whose next answer is `answer` (an object goes as its JSON). */
export async function keyAnswering(answer: string | object): Promise<string> {
  const key = newFakeOpenAiKey();
  await queueOpenAiAnswer(key, typeof answer === "string" ? answer : JSON.stringify(answer));
  return key;
}
