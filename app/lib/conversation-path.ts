/**
 * The screen a conversation is on: a contact's page, or a bare number's thread. What a mention, its notification and
 * the Mentions list open; it lives here because notes (conversations) and pushes (push) both name it.
 */
export const conversationPath = (to: { contactId: number } | { phone: string }) =>
  "contactId" in to ? `/contacts/${to.contactId}` : `/messages/conversations/${encodeURIComponent(to.phone)}`;

/** The same from a row that has either (a note, a mention). */
export const conversationPathOf = (row: { contactId: number | null; phone: string | null }) =>
  conversationPath(row.contactId !== null ? { contactId: row.contactId } : { phone: row.phone ?? "" });
