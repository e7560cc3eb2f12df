/**
 * @mentions in an internal note (decision 047): `@` followed by an active user's email, full name or — when no other
 * active user shares it — first name, case-insensitive, ending at a non-word character. Pure: the server resolves
 * with it (the only resolution that counts); the picker only inserts text this function will read back.
 */
export type Mentionable = { id: number; name: string; email: string; firstName?: string };

/** How many mentions the Mentions page lists. Here, not in the .server reader: the page's text shows it, and a
 * .server module is empty in the browser (the number went missing on hydration). */
export const MENTIONS_SHOWN = 50;

const escapeRe = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/** What the picker inserts after `@` for a user: the full name, or the email when the name is empty. */
export const mentionText = (u: Mentionable) => (u.name.trim() ? u.name.trim() : u.email);

function handles(u: Mentionable, firstNames: Map<string, number>): string[] {
  const out = [u.email, u.name.trim()];
  const first = (u.firstName ?? "").trim();
  if (first && firstNames.get(first.toLowerCase()) === 1) out.push(first);
  return out.filter((h) => h.length > 0);
}

/** The ids of the users `body` mentions, in user order, without duplicates. */
export function resolveMentions(body: string, users: readonly Mentionable[]): number[] {
  if (!body.includes("@")) return [];
  const firstNames = new Map<string, number>();
  for (const u of users) {
    const f = (u.firstName ?? "").trim().toLowerCase();
    if (f) firstNames.set(f, (firstNames.get(f) ?? 0) + 1);
  }
  const found: number[] = [];
  for (const u of users) {
    const alternatives = handles(u, firstNames)
      .sort((a, b) => b.length - a.length)
      .map((h) => escapeRe(h).replace(/\s+/g, "\\s+"))
      .join("|");
    // Not preceded by a word character (an email address in the text is not a mention of its domain's user).
    if (new RegExp(`(?:^|[^\\w.])@(?:${alternatives})(?![\\w@])`, "i").test(body)) found.push(u.id);
  }
  return found;
}

/**
 * What could follow each `@` in `body`, lower-cased: an email-shaped token and the first word (a first name starts
 * every full name). The server reads only the active users these name (not every user), then resolveMentions decides.
 */
export function mentionCandidates(body: string): { emails: string[]; firstWords: string[] } {
  const emails = new Set<string>();
  const firstWords = new Set<string>();
  for (const m of body.matchAll(/(?:^|[^\w.])@([^\s@]+(?:@[^\s@]+)?)/g)) {
    const token = m[1].replace(/[.,;:!?)]+$/, "").toLowerCase();
    if (token.includes("@")) emails.add(token);
    else firstWords.add(token.replace(/[^\p{L}\p{N}'-].*$/u, ""));
    if (emails.size + firstWords.size >= 20) break;
  }
  return { emails: [...emails], firstWords: [...firstWords].filter(Boolean) };
}

/** The `@…` being typed at the caret (the picker's query), or null when the caret is not in a mention. */
export function mentionQuery(text: string, caret: number): { start: number; query: string } | null {
  const before = text.slice(0, caret);
  const at = before.lastIndexOf("@");
  if (at < 0 || (at > 0 && /[\w.]/.test(before[at - 1]))) return null;
  const query = before.slice(at + 1);
  if (query.length > 40 || /\n/.test(query) || /\s\s/.test(query)) return null;
  return { start: at, query };
}
