// Shared by the offline composer and the offline chat (each picks lines with it), below both so neither imports the other.

/** FNV-1a: a small stable hash so the same request and seed always pick the same lines. */
export function hash(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}
