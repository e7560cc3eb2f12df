import { AppError } from "~/lib/app-error";

// Carriers filter public link shorteners in A2P SMS (a shared domain that spammers use too): a text with one is often
// blocked whoever sends it (issue 29). A full link or the organisation's own domain is delivered.

export const LINK_SHORTENERS = [
  "bit.ly",
  "tinyurl.com",
  "t.co",
  "goo.gl",
  "ow.ly",
  "is.gd",
  "buff.ly",
  "rebrand.ly",
  "cutt.ly",
  "shorturl.at",
  "tiny.cc",
  "rb.gy",
  "t.ly",
  "bl.ink",
  "s.id",
  "v.gd",
];
const SHORTENER_RE = new RegExp(
  `(?:^|[\\s("'<])(?:https?://)?(?:www\\.)?(${LINK_SHORTENERS.map((d) => d.replace(/\./g, "\\.")).join("|")})(?:/|\\b)`,
  "i",
);

/** The first public shortener's domain in the text, or null. */
export function findLinkShortener(text: string): string | null {
  return SHORTENER_RE.exec(text)?.[1]?.toLowerCase() ?? null;
}

export const shortenerRefusal = (domain: string) =>
  `Links through ${domain} are filtered by carriers: use the full link or your own domain.`;

/** An SMS (a send, a campaign step, a template) with a public shortener is refused when it is written. */
export function assertNoLinkShortener(channel: "sms" | "email", ...parts: (string | null | undefined)[]) {
  if (channel !== "sms") return;
  const domain = findLinkShortener(parts.filter(Boolean).join("\n"));
  if (domain) throw new AppError("validation", shortenerRefusal(domain), { field: "content" });
}
