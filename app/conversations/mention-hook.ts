/**
 * Someone was @mentioned in an internal note (decision 047). The note and its mentions are committed before the hooks
 * run; a hook's failure is logged and never fails the note. Web push plugs in here (registered in
 * app/wiring/mention-hooks.server.ts); the event carries what a notification needs, and nothing of the contact's texts.
 */
export type MentionEvent = {
  noteId: number;
  /** The mentioned users (active, never the author). */
  userIds: number[];
  authorUserId: number;
  /** The conversation: a contact's (`/contacts/:id`) or a bare number's (`/messages/conversations/:phone`). */
  contactId: number | null;
  phone: string | null;
  /** The screen to open: the conversation's path. */
  path: string;
  /** The note's first 140 characters. */
  excerpt: string;
  at: Date;
};

export type MentionHook = (event: MentionEvent) => Promise<unknown>;
