/**
 * User search text on its way to SQL. Control characters are stripped (a NUL inside an FTS5 MATCH string made
 * D1 answer "unterminated string", a 500), whitespace runs become one space, and the length is bounded.
 * Shared by every search entry point (contacts, messages, the download) so none forgets it.
 */
export const MAX_SEARCH_LENGTH = 200;

export function searchText(q: string | null | undefined): string {
  if (!q) return "";
  return q
    .replace(/[\t\n\r\f\v]/g, " ")
    .replace(/\p{Cc}/gu, "")
    .replace(/\s+/g, " ")
    .trim()
    .slice(0, MAX_SEARCH_LENGTH)
    .trim();
}

/** A LIKE pattern matching `q` anywhere, with %, _ and \ escaped: use with `LIKE ? ESCAPE '\'`. */
export function likeContains(q: string): string {
  return `%${q.replace(/[%_\\]/g, (c) => "\\" + c)}%`;
}
