/**
 * Untrusted text (a contact's message) inside a prompt, in markers it cannot close (issue 23): the markers carry a
 * random per-request nonce the text cannot know, and anything fence-like in the text (runs of < or >, our marker
 * words) is neutralised first. The prompt names the exact markers and says the text between them is data.
 */
export function newFenceNonce(): string {
  return crypto.randomUUID().replace(/-/g, "").slice(0, 16);
}

export type Fence = { open: string; close: string; wrap: (text: string, max?: number) => string };

export function fenceFor(nonce: string = newFenceNonce()): Fence {
  const open = `<<<DATA-${nonce}`;
  const close = `END-DATA-${nonce}>>>`;
  return {
    open,
    close,
    wrap: (text, max = 1000) => `${open}\n${neutralise(text.slice(0, max))}\n${close}`,
  };
}

/** The untrusted text with every fence-like sequence broken up. */
export function neutralise(text: string): string {
  return (
    text
      .replace(/[<>\u2039\u203A\u00AB\u00BB\uFF1C\uFF1E\u3008\u3009]{2,}/g, " ")
      .replace(/\b(?:END[-_ ]?)?DATA-[A-Za-z0-9]+/gi, " ")
      // Control characters (other than tab and newlines) have no place in a text message and can hide markers.
      .replace(/\p{Cc}/gu, (c) => (c === "\n" || c === "\r" || c === "\t" ? c : ""))
  );
}
