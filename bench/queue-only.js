// Ceiling 4 of bench/broadcast.mjs: the queue alone. POST /enqueue { count } sends `count` send-shaped jobs, 100 per
// sendBatch (as the cron tick does); the consumer, with the same batch settings as Helio's, only acks. What is left
// of a message's time after this and the POST is what D1 and the consumer's JavaScript may spend.
let acked = 0;
let lastAckAt = 0;

export default {
  async fetch(request, env) {
    if (new URL(request.url).pathname === "/stats") return Response.json({ acked, lastAckAt });
    const { count } = await request.json();
    acked = 0;
    for (let first = 0; first < count; first += 100) {
      const batch = [];
      for (let id = first; id < Math.min(first + 100, count); id++)
        batch.push({ body: { v: 1, type: "send", messageId: id + 1 }, contentType: "json" });
      await env.JOBS.sendBatch(batch);
    }
    return Response.json({ enqueued: count });
  },

  async queue(batch) {
    acked += batch.messages.length;
    lastAckAt = Date.now();
  },
};
