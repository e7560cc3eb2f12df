// Ceiling 4 of bench/broadcast.mjs: the queue alone. POST /enqueue { count, perJob } sends `count` messages' send jobs,
// `perJob` ids to a job and 100 jobs per sendBatch (as the cron tick does); the consumer, with the same batch settings
// as Helio's, only acks. What is left of a message's time after this and the POST is what D1 and the consumer's
// JavaScript may spend.
let acked = 0;
let lastAckAt = 0;

export default {
  async fetch(request, env) {
    if (new URL(request.url).pathname === "/stats") return Response.json({ acked, lastAckAt });
    const { count, perJob } = await request.json();
    acked = 0;
    const jobs = [];
    for (let first = 1; first <= count; first += perJob) {
      const messageIds = [];
      for (let id = first; id < Math.min(first + perJob, count + 1); id++) messageIds.push(id);
      jobs.push({ body: { v: 2, type: "send", messageIds }, contentType: "json" });
    }
    for (let i = 0; i < jobs.length; i += 100) await env.JOBS.sendBatch(jobs.slice(i, i + 100));
    return Response.json({ enqueued: count });
  },

  async queue(batch) {
    for (const m of batch.messages) acked += m.body.messageIds.length;
    lastAckAt = Date.now();
  },
};
