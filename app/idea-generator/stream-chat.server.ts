import { type ChatAnswer, type ChatInput } from "./chat-with-assistant.server";
import { normalizeTypography, removePromises } from "../ai/draft-rules";
import { composeChatAnswer } from "../ai/offline-chat";
import { chatPrompt } from "../ai/prompts/chat";
import { MalformedAiOutput, type AiPrompt } from "../ai/provider";
import { defaultLog, providersWithinBudget, type AiDeps } from "../ai/run-chain.server";

/** Streamed answers are plain text; the follow-up questions come after this line. */
export const SUGGESTIONS_MARKER = "SUGGESTIONS:";

/**
 * The longest answer shown and stored (issue 23: a model that ignored max_tokens wrote 2 MB into chat_messages). At
 * this length the model is stopped and the answer ends with TRUNCATED_ANSWER.
 */
export const MAX_ANSWER_CHARS = 8000;
export const TRUNCATED_ANSWER = "\n\n[Answer cut off at 8,000 characters]";

/** The chat prompt asking for plain text (so it can be shown as it is written) instead of JSON. */
export function chatStreamPrompt(input: ChatInput): AiPrompt {
  const base = chatPrompt(input.message, input.context, input.chatHistory);
  return {
    ...base,
    system: base.system.replace(
      /Answer with JSON only:.*$/m,
      `Answer in plain text (you may use - bullets). Then, on a line of its own, write ${SUGGESTIONS_MARKER} followed by 3 follow-up questions the user could ask, one per line, each starting with "- ".`,
    ),
  };
}

/** The part of a streamed text that is answer, holding back the start of a marker that may be arriving. */
export function visibleAnswer(full: string): string {
  const at = full.indexOf(SUGGESTIONS_MARKER);
  if (at >= 0) return full.slice(0, at);
  for (let n = Math.min(SUGGESTIONS_MARKER.length - 1, full.length); n > 0; n--) {
    if (SUGGESTIONS_MARKER.startsWith(full.slice(-n))) return full.slice(0, -n);
  }
  return full;
}

/** A finished streamed text → the answer and up to 3 suggestions, with the drafting rules applied. */
export function splitAnswer(full: string): { response: string; suggestions: string[] } {
  const at = full.indexOf(SUGGESTIONS_MARKER);
  const response = removePromises(normalizeTypography(at >= 0 ? full.slice(0, at) : full)).trim();
  const suggestions =
    at >= 0
      ? full
          .slice(at + SUGGESTIONS_MARKER.length)
          .split("\n")
          .map((l) =>
            normalizeTypography(l.replace(/^\s*(?:[-*•]|\d+[.)])\s*/, ""))
              .trim()
              .slice(0, 300),
          )
          .filter(Boolean)
          .slice(0, 3)
      : [];
  return { response, suggestions };
}

async function* words(text: string, signal: AbortSignal): AsyncIterable<string> {
  for (const piece of text.match(/\S+\s*|\s+/g) ?? []) {
    signal.throwIfAborted();
    yield piece;
  }
}

/**
 * One Idea Generator answer, streamed: `onText` gets the answer as each provider writes it. A provider that fails
 * before writing anything is logged and the next is asked (the offline composer closes the chain, writing its
 * answer word by word); one that fails midway ends the answer with an error, since its words are already shown.
 */
export async function streamChat(
  deps: AiDeps,
  input: ChatInput,
  seed: number,
  onText: (text: string) => void,
  signal?: AbortSignal,
): Promise<ChatAnswer> {
  const log = deps.log ?? defaultLog;
  const prompt = chatStreamPrompt(input);
  let lastError: unknown = new Error("no AI provider configured");
  for (const provider of await providersWithinBudget(deps, "chat-stream")) {
    const offline = provider.name === "offline";
    if (!provider.stream && !offline) continue;
    signal?.throwIfAborted();
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(), provider.timeoutMs * 3);
    // The reader went away (`signal`): stop the model, not just the relay (issue 23).
    const stop = () => controller.abort(signal?.reason);
    signal?.addEventListener("abort", stop);
    let full = "";
    let shown = 0;
    try {
      const answer = offline ? composeChatAnswer(input.message, input.context, seed, input.chatHistory) : null;
      const pieces = answer
        ? words(
            `${answer.response}\n${SUGGESTIONS_MARKER}\n${answer.suggestions.map((s) => `- ${s}`).join("\n")}`,
            controller.signal,
          )
        : provider.stream!(prompt, controller.signal);
      let cut = false;
      for await (const piece of pieces) {
        full += piece;
        let visible = visibleAnswer(full);
        if (visible.length > MAX_ANSWER_CHARS && full.indexOf(SUGGESTIONS_MARKER) < 0) {
          // Long enough: stop the model and end the answer here, with a mark (leaving the loop cancels the stream).
          visible = visible.slice(0, MAX_ANSWER_CHARS) + TRUNCATED_ANSWER;
          full = visible;
          cut = true;
        }
        if (visible.length > shown) {
          onText(visible.slice(shown));
          shown = visible.length;
        }
        // Past the cap with the suggestions still coming (or never ending): enough, stop the model.
        if (cut || full.length > 2 * MAX_ANSWER_CHARS) {
          controller.abort();
          break;
        }
      }
      const { response, suggestions } = splitAnswer(full);
      if (!response) throw new MalformedAiOutput("an empty answer");
      return {
        response:
          response.length > MAX_ANSWER_CHARS + TRUNCATED_ANSWER.length
            ? response.slice(0, MAX_ANSWER_CHARS) + TRUNCATED_ANSWER
            : response,
        suggestions,
        provider: provider.name,
      };
    } catch (error) {
      lastError = error;
      await Promise.resolve()
        .then(() =>
          log({
            kind: "chat-stream",
            provider: provider.name,
            error: error instanceof Error ? error.message : String(error),
          }),
        )
        .catch(() => undefined);
      if (shown > 0 || signal?.aborted) throw error;
    } finally {
      clearTimeout(timer);
      signal?.removeEventListener("abort", stop);
    }
  }
  throw lastError;
}
