#!/usr/bin/env node
// The second process of bench/leads.mjs: a lead vendor posting every lead at once. Reads one JSON job on stdin —
// { url, concurrency, posts: [{ key, body }] } — POSTs each body as JSON to `url` with `Authorization: Bearer key` and
// `Idempotency-Key: lead-<i>` (a post that got no answer, or 409, is sent again with it a second later, up to 5 attempts), at most `concurrency`
// in flight, and prints one JSON line: [{ i, sentAt, doneAt, status, attempts, error? }] (epoch ms, so the parent
// can set them beside the fake Twilio's own receive times on the same clock).
const job = JSON.parse(
  await new Promise((resolve) => {
    let s = "";
    process.stdin.on("data", (d) => (s += d));
    process.stdin.on("end", () => resolve(s));
  }),
);
const MAX_ATTEMPTS = 5;
const results = new Array(job.posts.length);
let next = 0;
async function lane() {
  while (next < job.posts.length) {
    const i = next++;
    const { key, body } = job.posts[i];
    const sentAt = Date.now();
    let status = 0;
    let error;
    let attempts = 0;
    // A vendor retries a post that got no answer (or 409: the first attempt is still being processed) with the same
    // Idempotency-Key, a second later: the lead is stored once either way.
    while (attempts++ < MAX_ATTEMPTS) {
      if (attempts > 1) await new Promise((r) => setTimeout(r, 1000));
      try {
        const res = await fetch(job.url, {
          method: "POST",
          headers: {
            "Content-Type": "application/json",
            Authorization: `Bearer ${key}`,
            "Idempotency-Key": `lead-${i}`,
          },
          body: JSON.stringify(body),
        });
        status = res.status;
        await res.arrayBuffer();
        if (status !== 409) break;
        error = "409 in progress";
      } catch (e) {
        status = -1;
        error = String(e?.cause?.code ?? e?.cause?.message ?? e?.message ?? e);
      }
    }
    results[i] = {
      i,
      sentAt,
      doneAt: Date.now(),
      status,
      attempts: Math.min(attempts, MAX_ATTEMPTS),
      ...(error ? { error } : {}),
    };
  }
}
await Promise.all(Array.from({ length: job.concurrency }, lane));
process.stdout.write(JSON.stringify(results) + "\n");
