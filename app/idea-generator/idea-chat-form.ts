import { z } from "zod";

/** How much of the context box travels with a message (and back in the page's URL). */
export const MAX_CHAT_CONTEXT = 2000;

/**
 * The Idea Generator's two boxes, as both the page's action (no JS) and the stream (JS) read them; idea-chat.server
 * bounds the message. A module the browser bundle can load, since the page builds its schema at top level.
 */
export const ideaChatForm = z.object({
  message: z.string().default(""),
  context: z
    .string()
    .default("")
    .transform((c) => c.slice(0, MAX_CHAT_CONTEXT)),
});
