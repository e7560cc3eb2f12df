/**
 * A request's or response's body, read to the end only while it stays within `maxBytes`: null past it (the stream
 * is cancelled there, nothing more is read). Content-Length only lets an honest oversized body fail before any read;
 * it is never trusted otherwise. Shared by the request caps (app/http/read-body) and the MMS media fetch.
 */
export async function readCapped(
  source: { headers: Headers; body: ReadableStream<Uint8Array> | null },
  maxBytes: number,
): Promise<Uint8Array<ArrayBuffer> | null> {
  const declared = Number(source.headers.get("Content-Length"));
  if (Number.isFinite(declared) && declared > maxBytes) {
    await source.body?.cancel().catch(() => {});
    return null;
  }
  if (!source.body) return new Uint8Array(0);
  const reader = source.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > maxBytes) {
      await reader.cancel().catch(() => {});
      return null;
    }
    chunks.push(value);
  }
  const out = new Uint8Array(size);
  let offset = 0;
  for (const c of chunks) {
    out.set(c, offset);
    offset += c.byteLength;
  }
  return out;
}
