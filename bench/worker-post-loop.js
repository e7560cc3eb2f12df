// Ceiling 3 of bench/broadcast.mjs and bench/campaign.mjs: the plain Node loop's POSTs made from inside workerd by a
// Worker that does nothing else — no queue, no D1. Each invocation gets a batch's worth of recipients (as a queue
// consumer would) and POSTs them with at most MAX_IN_FLIGHT requests open, like Helio's consumer. Its rate is the
// most any Worker can dispatch through this runtime on this machine; Helio's share of the Node loop is bounded by it.
import { twilioPoster } from "./lib/twilio-post.mjs";

export default {
  /** POST / [{ to, body }, …] → 204 once the batch's POSTs are done. */
  async fetch(request, env) {
    const recipients = await request.json();
    const post = twilioPoster(env);
    let next = 0;
    const worker = async () => {
      while (next < recipients.length) {
        const { to, body } = recipients[next++];
        const res = await post(to, body);
        const json = await res.json();
        if (res.status !== 201 || typeof json.sid !== "string") throw new Error(`HTTP ${res.status}`);
      }
    };
    await Promise.all(Array.from({ length: Math.min(Number(env.MAX_IN_FLIGHT), recipients.length) }, worker));
    return new Response(null, { status: 204 });
  },
};
