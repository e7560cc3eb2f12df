// Long multibyte text and a D1 binding that measures what it is given: the tests of byte-sized batches (issue 22).

const FILLER = "Énergie solaire ☀ für Ihr Dach — 🌞 ahorro garantizado ✓ 太陽光 ";

/**
 * Exactly `length` UTF-16 units (what zod's `.max()` counts) starting with `head`, in accented, CJK and emoji
 * prose (2–4 UTF-8 bytes a character for most of it), never ending on half a surrogate pair or a space.
 */
export function longText(length: number, head = ""): string {
  let s = head;
  while (s.length < length) s += FILLER;
  s = s.slice(0, length);
  const last = s.charCodeAt(length - 1);
  if ((last >= 0xd800 && last <= 0xdbff) || /\s/.test(s[length - 1])) s = s.slice(0, length - 1) + ".";
  return s;
}

const encoder = new TextEncoder();

/**
 * `d1` as the app's code sees it, noting the largest bound value (UTF-8 bytes) and the longest SQL text of every
 * statement prepared through it, and the most values bound to one statement — D1 refuses a value over 2 MB, SQL over
 * 100 KB and more than 100 bound parameters.
 */
export function measuringD1(d1: D1Database) {
  const seen = { maxValueBytes: 0, maxSqlBytes: 0, maxParams: 0, statements: 0 };
  const wrap = <T extends object>(target: T, get: (prop: string | symbol) => unknown) =>
    new Proxy(target, {
      get(t, prop) {
        const own = get(prop);
        if (own !== undefined) return own;
        const v = Reflect.get(t, prop);
        return typeof v === "function" ? v.bind(t) : v;
      },
    });
  const measured = wrap(d1, (prop) =>
    prop === "prepare"
      ? (query: string) => {
          seen.statements++;
          seen.maxSqlBytes = Math.max(seen.maxSqlBytes, encoder.encode(query).length);
          const stmt = d1.prepare(query);
          return wrap(stmt, (p) =>
            p === "bind"
              ? (...values: unknown[]) => {
                  seen.maxParams = Math.max(seen.maxParams, values.length);
                  for (const v of values)
                    if (typeof v === "string")
                      seen.maxValueBytes = Math.max(seen.maxValueBytes, encoder.encode(v).length);
                  return stmt.bind(...values);
                }
              : undefined,
          );
        }
      : undefined,
  );
  return { d1: measured, seen };
}
