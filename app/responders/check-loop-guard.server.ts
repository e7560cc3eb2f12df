import { hitCap } from "~/caps/hit-cap.server";
import type { Db } from "~/db/client.server";
import { looksAutomated, normalizedText } from "./looks-automated";

/** The same text from the same number again within this window reads as a machine (a human rephrases). */
export const REPEAT_WINDOW_MS = 10 * 60_000;

export type LoopReason = "looks automated" | "repeated text";

async function digest(text: string): Promise<string> {
  const bytes = new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text)));
  return [...bytes.slice(0, 8)].map((b) => b.toString(16).padStart(2, "0")).join("");
}

/**
 * The loop guard's look at one inbound text (issue 23): null when Helio may auto-answer it, else why not — it reads
 * like an auto-reply (looks-automated), or the number sent the same text within the last few minutes. The repeat
 * check is one counter row keyed by the number and the text's digest (no history read).
 */
export async function checkLoopGuard(
  db: Db,
  msg: { phone: string; content: string },
  now: Date,
): Promise<LoopReason | null> {
  if (looksAutomated(msg.content)) return "looks automated";
  const key = `${msg.phone}:${await digest(normalizedText(msg.content))}`;
  const seen = await hitCap(db, "inbound_repeat", key, { windowMs: REPEAT_WINDOW_MS, limit: 1 }, now);
  return seen.allowed ? null : "repeated text";
}
