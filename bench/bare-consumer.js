// Ceiling 2 of bench/broadcast.mjs: the least a queue consumer can do per message — one POST to (fake) Twilio and
// one D1 UPDATE — with every message of a batch in flight at once. No reads, no claim, no pacing: it bounds what
// the real consumer can reach under the same queue delivery (one batch at a time locally).

import { twilioPoster } from "./lib/twilio-post.mjs";

// Same numbers as bench/lib/recipients.mjs phoneFor() (a Worker cannot import that file).
const EXCHANGES = [];
for (let x = 234; x <= 999 && EXCHANGES.length < 100; x++) if (x % 100 !== 11 && x !== 555) EXCHANGES.push(x);
const phoneFor = (i) => `+1303${EXCHANGES[Math.floor(i / 10_000)]}${String(i % 10_000).padStart(4, "0")}`;

export default {
  /** POST /enqueue { count }: one `{ id }` queue message per row of `m`, 100 per sendBatch. */
  async fetch(request, env) {
    const { count } = await request.json();
    for (let first = 1; first <= count; first += 100) {
      const batch = [];
      for (let id = first; id < Math.min(first + 100, count + 1); id++)
        batch.push({ body: { id }, contentType: "json" });
      await env.JOBS.sendBatch(batch);
    }
    return Response.json({ enqueued: count });
  },

  async queue(batch, env) {
    const post = twilioPoster(env);
    const update = env.DB.prepare("UPDATE m SET status = 'sent', sid = ? WHERE id = ?");
    const one = async (msg) => {
      const { id } = msg.body;
      try {
        const res = await post(phoneFor(id - 1), "Hi Bench, quick solar question");
        const json = await res.json();
        if (!res.ok) throw new Error(`HTTP ${res.status}`);
        await update.bind(json.sid, id).run();
        msg.ack();
      } catch (err) {
        console.error("bare consumer: message", id, String(err));
        msg.retry();
      }
    };
    // Locally workerd does not cap outbound connections (production allows 6 open at once per invocation), so the
    // plain Promise.all has the whole batch in flight. MAX_IN_FLIGHT = "6" models production's cap.
    const limit = Number(env.MAX_IN_FLIGHT) || batch.messages.length;
    let next = 0;
    await Promise.all(
      Array.from({ length: Math.min(limit, batch.messages.length) }, async () => {
        while (next < batch.messages.length) await one(batch.messages[next++]);
      }),
    );
  },
};
