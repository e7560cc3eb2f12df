import type { MessageKind } from "~/db/schema/messages";
import { settingValue } from "~/lib/setting-value";

// Branded links with click tracking (issue 29 item 3, decision 068). A text's http(s) links go out as
// `<link base>/l/<code>`: the organisation's own short domain (or Helio's public address), one code per recipient and
// link. The code names the message and the link's place in it and is signed, so it cannot be made up; the
// destination is read back from the message's stored content, never from the request — there is nothing to redirect
// anywhere else. The stored message keeps its real links (what the rep wrote, what the TCPA packet shows); only the
// wire text carries the codes, and it is the same text every time it is computed (the reconciler relies on that).

/** Texts to contacts that a person or an automation wrote; tests, staff alerts and STOP/HELP answers go as written. */
export const TRACKED_KINDS: ReadonlySet<MessageKind> = new Set<MessageKind>([
  "campaign",
  "broadcast",
  "quick",
  "individual",
  "reply",
  "auto_reply",
  "auto_followup",
  "appointment",
]);

/** A text's first five links are tracked (the code's link number is one digit, 0–4); later ones go as written. */
export const MAX_TRACKED_LINKS = 5;
/** Longer links go as written: a destination this long is a data blob, not a page a homeowner opens. */
export const MAX_TRACKED_URL = 2048;

/** Tracking is on unless this flag is set (org-flag: "1" = on), so a new install tracks from its first text. */
export const LINK_TRACKING_OFF_KEY = "linkTrackingOff";
export const LINK_DOMAIN_KEY = "linkDomain";
export const MAX_LINK_DOMAIN = 100;
/** A host name: labels of letters, digits and hyphens, at least one dot, no scheme, path or port. */
export const LINK_DOMAIN_RE = /^(?=.{4,100}$)(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z][a-z0-9-]{0,61}[a-z0-9]$/;
export const LINK_DOMAIN_HINT =
  "A host name you point at Helio, such as go.yoursolar.com — no https:// and no path. Leave blank to use Helio's own address.";

// A link runs to the first space, quote or angle bracket; punctuation that ends a sentence is not part of it.
const LINK_RE = /\bhttps?:\/\/[^\s<>"'`]+/gi;
const TRAILING = /[.,;:!?*]+$/;

export type FoundLink = { start: number; end: number; url: string };

/** The text's http(s) links in order, with their place in it (sentence punctuation and an unopened ')' left out). */
export function findLinks(text: string): FoundLink[] {
  const out: FoundLink[] = [];
  for (const m of text.matchAll(LINK_RE)) {
    let url = m[0];
    for (;;) {
      const before = url;
      url = url.replace(TRAILING, "");
      // "(see https://x.com/a)" — the closing bracket is the sentence's unless the link opened one.
      if (/[)\]]$/.test(url) && count(url, url.endsWith(")") ? "(" : "[") < count(url, url.at(-1)!))
        url = url.slice(0, -1);
      if (url === before) break;
    }
    if (/^https?:\/\/[^/?#]*[a-z0-9]/i.test(url)) out.push({ start: m.index, end: m.index + url.length, url });
  }
  return out;
}
const count = (s: string, ch: string) => s.split(ch).length - 1;

/** The links of a text that are tracked, in the order their codes number them (the same on send and on click). */
export function trackableLinks(text: string): FoundLink[] {
  return findLinks(text)
    .filter((l) => l.url.length <= MAX_TRACKED_URL)
    .slice(0, MAX_TRACKED_LINKS);
}

/** The Organisation screen's link settings. */
export function linkTrackingFrom(rows: readonly { key: string; value: string }[]) {
  return { track: settingValue(rows, LINK_TRACKING_OFF_KEY) !== "1", domain: settingValue(rows, LINK_DOMAIN_KEY) };
}

/** Where tracked links point: https://<link domain> when one is set, else Helio's public address; null when off. */
export function linkBaseFrom(rows: readonly { key: string; value: string }[], publicBaseUrl: string): string | null {
  const { track, domain: typed } = linkTrackingFrom(rows);
  if (!track) return null;
  const domain = typed.toLowerCase();
  if (LINK_DOMAIN_RE.test(domain)) return `https://${domain}`;
  // No public address (PUBLIC_BASE_URL unset): a link to nowhere would be worse than the real one.
  return publicBaseUrl.replace(/\/+$/, "") || null;
}

/** The text with each tracked link replaced by its code's URL (`codes[i]` for the i-th tracked link). */
export function replaceLinks(text: string, base: string, codes: readonly string[]): string {
  const links = trackableLinks(text);
  let out = "";
  let at = 0;
  links.forEach((l, i) => {
    out += text.slice(at, l.start) + `${base}/l/${codes[i]}`;
    at = l.end;
  });
  return out + text.slice(at);
}

/** As the text will go out, for counting its segments before it is sent: a code is at most CODE_MAX characters. */
export function withTrackedLinks(text: string, base: string | null): string {
  if (!base) return text;
  const links = trackableLinks(text);
  return links.length
    ? replaceLinks(
        text,
        base,
        links.map(() => "x".repeat(CODE_MAX)),
      )
    : text;
}

// The code: the message id in base 62, the link's number (0–4), then 10 characters of an HMAC-SHA256 of both.
export const SIGNATURE_CHARS = 10;
const CODE_MAX = 11 + 1 + SIGNATURE_CHARS;
const CODE_RE = new RegExp(`^([0-9A-Za-z]{1,11})([0-4])([A-Za-z0-9_-]{${SIGNATURE_CHARS}})$`);
const B62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";

export function toBase62(n: number): string {
  let s = "";
  do {
    s = B62[n % 62] + s;
    n = Math.floor(n / 62);
  } while (n > 0);
  return s;
}

export function fromBase62(s: string): number {
  let n = 0;
  for (const ch of s) n = n * 62 + B62.indexOf(ch);
  return n;
}

/** What the signature covers: the message and the link, under its own purpose so no other HMAC of ours matches. */
export const signedPart = (messageId: number, index: number) => `link:${messageId}:${index}`;

/** The code's parts, or null when it is not shaped like one (the signature is checked by the caller). */
export function parseLinkCode(code: string): { messageId: number; index: number; signature: string } | null {
  const m = CODE_RE.exec(code);
  if (!m) return null;
  const messageId = fromBase62(m[1]);
  if (!Number.isSafeInteger(messageId) || messageId < 1) return null;
  return { messageId, index: Number(m[2]), signature: m[3] };
}

// Link previews (iMessage fetches as facebookexternalhit), chat apps, search engines and carriers' scanners open
// links nobody clicked: they are redirected like anyone, but a click, its trigger and its alert are a person's.
const BOT_RE =
  /bot\b|bot\/|crawler|spider|preview|facebookexternalhit|facebot|twitterbot|slackbot|whatsapp|telegrambot|discordbot|linkedinbot|skypeuripreview|embedly|quora link|outbrain|pinterest|vkshare|w3c_validator|headless|python-requests|curl\/|wget\/|go-http-client|okhttp|java\//i;

export function isBotUserAgent(userAgent: string | null): boolean {
  return !userAgent || BOT_RE.test(userAgent);
}

/** Whether a text goes out with tracked links: an SMS of a tracked kind (a test send is kind `test`, not tracked). */
export function isTrackedText(m: { channel: string; kind: MessageKind }): boolean {
  return m.channel === "sms" && TRACKED_KINDS.has(m.kind);
}

const escapeRe = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/**
 * Whether a text the provider reports is this message as it went out: the stored text itself, or the stored text
 * with each tracked link replaced by a code for this message (the reconciler asks, with no secret or link base).
 */
export function isSentTextOf(body: string, stored: string, messageId: number): boolean {
  if (body === stored) return true;
  const links = trackableLinks(stored);
  if (!links.length) return false;
  const code = `https?://[^\\s/]+/l/${toBase62(messageId)}[0-4][A-Za-z0-9_-]{${SIGNATURE_CHARS}}`;
  let re = "^";
  let at = 0;
  for (const l of links) {
    re += escapeRe(stored.slice(at, l.start)) + `(?:${code}|${escapeRe(l.url)})`;
    at = l.end;
  }
  return new RegExp(re + escapeRe(stored.slice(at)) + "$").test(body);
}
