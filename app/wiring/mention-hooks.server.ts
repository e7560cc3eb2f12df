import type { MentionHook } from "~/conversations/mention-hook";
import type { JobQueue } from "~/lib/job-queue";
import { enqueueMentionPushes } from "~/push/push-jobs";

/**
 * The features told of an @mention in an internal note (decision 047), given the request's queue: web push (issue 27
 * item 7) enqueues one `mention` push per mentioned user; the push job reads the note and sends within the cap. The
 * note screens pass this list to addConversationNote.
 */
export const mentionHooks = (queue: JobQueue): readonly MentionHook[] => [
  (event) => enqueueMentionPushes(queue, event.noteId, event.userIds),
];
