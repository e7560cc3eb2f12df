/** The contact list's own search params (query and page), so closing a dialog or finishing an action returns to the same view. */
export function listSearch(request: Request): string {
  const from = new URL(request.url).searchParams;
  const keep = new URLSearchParams();
  for (const key of ["q", "after", "before"]) {
    const v = from.get(key);
    if (v) keep.set(key, v);
  }
  const s = keep.toString();
  return s ? `?${s}` : "";
}
