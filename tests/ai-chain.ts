import { createOfflineComposer } from "~/ai/providers/offline.server";
import { createOpenAi } from "~/ai/providers/openai.server";
import { fakeOpenAiBase } from "./fakes/control";

/** The AI chain the AI tests run: the fake OpenAI-compatible server under `key` first, then the offline composer. */
export const fakeOpenAiChain = (key: string, timeoutMs = 5_000) => ({
  providers: [
    createOpenAi({ apiKey: key, baseUrl: fakeOpenAiBase(), model: "gpt-test", timeoutMs }),
    createOfflineComposer(),
  ],
  log: () => {},
});
