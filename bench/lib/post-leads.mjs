#!/usr/bin/env node
// The second process of bench/leads.mjs: a lead vendor posting every lead at once. Reads one JSON job on stdin —
// { url, concurrency, posts: [{ key, body }] } — POSTs each body as JSON to `url` with `Authorization: Bearer key`,
// at most `concurrency` in flight, and prints one JSON line: [{ i, sentAt, doneAt, status }] (epoch ms, so the parent
// can set them beside the fake Twilio's own receive times on the same clock).
const job = JSON.parse(
  await new Promise((resolve) => {
    let s = "";
    process.stdin.on("data", (d) => (s += d));
    process.stdin.on("end", () => resolve(s));
  }),
);
const results = new Array(job.posts.length);
let next = 0;
async function lane() {
  while (next < job.posts.length) {
    const i = next++;
    const { key, body } = job.posts[i];
    const sentAt = Date.now();
    let status = 0;
    try {
      const res = await fetch(job.url, {
        method: "POST",
        headers: { "Content-Type": "application/json", Authorization: `Bearer ${key}` },
        body: JSON.stringify(body),
      });
      status = res.status;
      await res.arrayBuffer();
    } catch {
      status = -1;
    }
    results[i] = { i, sentAt, doneAt: Date.now(), status };
  }
}
await Promise.all(Array.from({ length: job.concurrency }, lane));
process.stdout.write(JSON.stringify(results) + "\n");
