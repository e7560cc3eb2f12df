/** The Idea Generator's thread: kept per user in chat_messages, so it survives reloads and works without JS. */
import { and, desc, eq } from "drizzle-orm";
import type { Db } from "~/db/client.server";
import { chatMessages } from "~/db/schema";
import { AppError } from "~/lib/app-error";
import { chatWithAssistant } from "./chat-with-assistant.server";
import { consumeAiQuota } from "../ai/consume-ai-quota.server";
import { streamChat } from "./stream-chat.server";
import type { AiDeps } from "../ai/run-chain.server";

export const THREAD_LIMIT = 50;

export type ChatEntry = {
  id: number;
  role: "user" | "assistant";
  content: string;
  suggestions: string[];
  createdAt: Date;
};

/** The newest THREAD_LIMIT messages of the user's thread, oldest first. */
export async function listChatThread(db: Db, userId: number, limit = THREAD_LIMIT): Promise<ChatEntry[]> {
  const rows = await db
    .select()
    .from(chatMessages)
    .where(eq(chatMessages.userId, userId))
    .orderBy(desc(chatMessages.createdAt), desc(chatMessages.id))
    .limit(limit);
  return rows.reverse().map((r) => ({
    id: r.id,
    role: r.role,
    content: r.content,
    suggestions: (r.suggestions ?? []).slice(0, 3),
    createdAt: r.createdAt,
  }));
}

/**
 * A turn's question: the message and context cut to 2,000 characters, with the last 10 messages of the thread; the
 * turn counts against the user's AI quota. Null for an empty message (nothing is counted).
 */
async function startChatTurn(db: Db, userId: number, input: { message: string; context: string }, now: Date) {
  const message = input.message.trim().slice(0, 2000);
  if (!message) return null;
  await consumeAiQuota(db, userId, now);
  const history = (await listChatThread(db, userId, 10)).map((m) => ({ role: m.role, content: m.content }));
  const question = { message, context: input.context.trim().slice(0, 2000), chatHistory: history };
  return { message, question, previous: history.length };
}

/**
 * Asks the assistant and stores the question and the answer together (one batch: never a question without its
 * answer). An empty message is ignored (null). Provider failures have already fallen through to the offline
 * composer; anything still failing is "Error generating response".
 */
export async function sendChatMessage(
  deps: AiDeps & { db: Db },
  userId: number,
  input: { message: string; context: string },
  now: Date,
): Promise<{ response: string; suggestions: string[]; provider: string } | null> {
  const turn = await startChatTurn(deps.db, userId, input, now);
  if (!turn) return null;
  const { message, question, previous } = turn;
  let answer;
  try {
    answer = await chatWithAssistant(deps, question, previous);
  } catch (cause) {
    throw new AppError("unavailable", "The assistant could not answer just now. Please try again.", {
      title: "Error generating response",
      cause,
    });
  }
  await saveChatTurn(deps.db, userId, message, answer, now);
  return answer;
}

/** The question and its answer, together (one batch); the answer 1 ms later so order never depends on ids alone. */
async function saveChatTurn(
  db: Db,
  userId: number,
  message: string,
  answer: { response: string; suggestions: string[] },
  now: Date,
) {
  await db.batch([
    db.insert(chatMessages).values({ userId, role: "user", content: message, suggestions: null, createdAt: now }),
    db.insert(chatMessages).values({
      userId,
      role: "assistant",
      content: answer.response,
      suggestions: answer.suggestions,
      createdAt: new Date(now.getTime() + 1),
    }),
  ]);
}

/**
 * The same, streamed (with JS): `onText` gets the answer as it is written; the turn is stored once it is complete.
 * An empty message is ignored (null). A failure before any text is "Error generating response" (503).
 */
export async function streamChatMessage(
  deps: AiDeps & { db: Db },
  userId: number,
  input: { message: string; context: string },
  now: Date,
  onText: (text: string) => void,
  /** Aborts when the reader has gone: the model is stopped and nothing is stored. */
  signal?: AbortSignal,
): Promise<{ response: string; suggestions: string[]; provider: string } | null> {
  const turn = await startChatTurn(deps.db, userId, input, now);
  if (!turn) return null;
  const { message, question, previous } = turn;
  let started = false;
  let answer;
  try {
    answer = await streamChat(
      deps,
      question,
      previous,
      (t) => {
        started = true;
        onText(t);
      },
      signal,
    );
  } catch (cause) {
    throw new AppError(
      "unavailable",
      started
        ? "The answer was cut off. Please try again."
        : "The assistant could not answer just now. Please try again.",
      {
        title: "Error generating response",
        cause,
      },
    );
  }
  await saveChatTurn(deps.db, userId, message, answer, now);
  return answer;
}

export async function clearChat(db: Db, userId: number): Promise<void> {
  await db.delete(chatMessages).where(and(eq(chatMessages.userId, userId)));
}
