// What every browser test shares: polling that works with JS off, unique searchable tags, sendable phone numbers.

/**
 * Polls `check` from Node until it is truthy (works with JS off in the page; page.waitForURL waits for a `load`
 * that client-side navigations never fire). `what` names the condition in the failure.
 */
export async function until(check, what = "condition", ms = 15_000) {
  const end = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > end) throw new Error(`${what} not met in time`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** Waits until the address bar matches (a full URL string or a RegExp). */
export const atUrl = (page, url) => until(() => (typeof url === "string" ? page.url() === url : url.test(page.url())), `url ${url}`);

/** `prefix` + 8 letters: searchable, and never colliding between modes or runs. */
export const tag = (prefix = "") => prefix + Array.from({ length: 8 }, () => "abcdefghjkmnpqrstuvwxyz"[Math.floor(Math.random() * 23)]).join("");

// Area codes in service (assessPhone refuses the others).
const AREA_CODES = ["212", "213", "305", "312", "404", "415", "503", "602", "617", "702", "713", "801", "919"];
/** A sendable US number as 10 digits: NXX-NXX-XXXX with N = 2–9, never 555-01XX (fictional). */
export function phone() {
  const n = (lo, hi) => lo + Math.floor(Math.random() * (hi - lo + 1));
  for (;;) {
    const p = `${AREA_CODES[n(0, AREA_CODES.length - 1)]}${n(2, 9)}${n(2, 9)}${n(2, 9)}${String(n(0, 9999)).padStart(4, "0")}`;
    if (!/^\d{3}55501/.test(p)) return p;
  }
}
/** The same as E.164 (+1…). */
export const randomPhone = () => `+1${phone()}`;
