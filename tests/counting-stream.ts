/** A request body of `total` bytes produced on demand (no Content-Length: chunked), counting how much was pulled. */
export function countingStream(total: number, chunk = 64 * 1024) {
  const state = { pulled: 0 };
  const bytes = new Uint8Array(chunk).fill(0x61);
  const stream = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (state.pulled >= total) return controller.close();
      state.pulled += chunk;
      controller.enqueue(bytes);
    },
  });
  return { stream, state };
}

/** A POST whose body is a stream (`duplex: "half"`, which the RequestInit type in use does not know yet). */
export const streamedPost = (body: ReadableStream<Uint8Array>, headers: Record<string, string>) =>
  ({ method: "POST", body, headers, duplex: "half" }) as RequestInit;
