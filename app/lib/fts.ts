import { searchText } from "./search-text";

/**
 * A user's search box text as an FTS5 MATCH expression for a trigram index: every term of 3+ characters must
 * appear as a substring (trigram matching ignores case). Phone-like terms ("(555) 123-45") match on their
 * digits. Returns null when no term is long enough for trigrams; callers then fall back to a bounded scan.
 */
export function ftsQuery(q: string): string | null {
  // Control characters never reach MATCH (a NUL ends FTS5's string early: "unterminated string").
  const terms = searchText(q)
    .split(/\s+/)
    .map((t) => (/^[\d()+\-.\s]+$/.test(t) && /\d/.test(t) ? t.replace(/\D/g, "") : t))
    .filter((t) => t.length >= 3);
  return terms.length ? terms.map((t) => `"${t.replaceAll('"', '""')}"`).join(" AND ") : null;
}
