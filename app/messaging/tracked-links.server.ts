import { base64Url, timingSafeEqualString } from "~/lib/crypto.server";
import type { MessageKind } from "~/db/schema/messages";
import {
  isTrackedText,
  parseLinkCode,
  replaceLinks,
  signedPart,
  SIGNATURE_CHARS,
  toBase62,
  trackableLinks,
} from "./tracked-links";

/** Signs a message's link; the key is imported once for a whole send batch. */
export type LinkSigner = (messageId: number, index: number) => Promise<string>;

export async function linkSigner(secret: string): Promise<LinkSigner> {
  const enc = new TextEncoder();
  const key = await crypto.subtle.importKey("raw", enc.encode(secret), { name: "HMAC", hash: "SHA-256" }, false, [
    "sign",
  ]);
  return async (messageId, index) =>
    base64Url(new Uint8Array(await crypto.subtle.sign("HMAC", key, enc.encode(signedPart(messageId, index))))).slice(
      0,
      SIGNATURE_CHARS,
    );
}

export async function linkCode(sign: LinkSigner, messageId: number, index: number): Promise<string> {
  return `${toBase62(messageId)}${index}${await sign(messageId, index)}`;
}

/** The text as it goes out: each tracked link replaced by `<base>/l/<code>` (decision 068). */
export async function trackLinks(text: string, base: string, sign: LinkSigner, messageId: number): Promise<string> {
  const links = trackableLinks(text);
  if (!links.length) return text;
  const codes = await Promise.all(links.map((_, i) => linkCode(sign, messageId, i)));
  return replaceLinks(text, base, codes);
}

/** The message and link a code names, or null when it is malformed or its signature is not ours. */
export async function verifyLinkCode(
  sign: LinkSigner,
  code: string,
): Promise<{ messageId: number; index: number } | null> {
  const parsed = parseLinkCode(code);
  if (!parsed) return null;
  const expected = await sign(parsed.messageId, parsed.index);
  return timingSafeEqualString(expected, parsed.signature)
    ? { messageId: parsed.messageId, index: parsed.index }
    : null;
}

type Rendered = { text: string; subject: string | null };

/**
 * The texts of a send batch as they go out: a tracked message's links become its codes (decision 068), the rest as
 * rendered. The signing key is imported only when some text has a link.
 */
export async function wireTexts(
  rows: readonly { id: number; channel: string; kind: MessageKind }[],
  rendered: ReadonlyMap<number, Rendered>,
  base: string | null,
  secret: string | null,
): Promise<Map<number, Rendered>> {
  const out = new Map(rendered);
  if (!base || !secret) return out;
  const tracked = rows.filter((r) => isTrackedText(r) && trackableLinks(rendered.get(r.id)!.text).length);
  if (!tracked.length) return out;
  const sign = await linkSigner(secret);
  for (const r of tracked) {
    const content = rendered.get(r.id)!;
    out.set(r.id, { ...content, text: await trackLinks(content.text, base, sign, r.id) });
  }
  return out;
}
