/** The most contacts one "Set owner" request changes (a page of /contacts is at most 1,000). */
export const MAX_OWNER_CONTACTS = 1000;
