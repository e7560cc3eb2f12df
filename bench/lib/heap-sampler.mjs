// The Helio Worker's heap through workerd's inspector (Miniflare's `inspectorPort`), as bench/lib/cpu-profile.mjs
// attaches to it. workerd answers an inspector command only while the isolate is not running JavaScript — between
// I/O (a timer; not a local D1 round trip, hence bench/lib/heap-probe-worker.js) — never in the middle of synchronous
// work, so these are samples at those moments. workerd never answers HeapProfiler.collectGarbage, but a heap snapshot
// starts with a full collection: the usage read right after one is the live heap, what the Worker must hold.
import WebSocket from "ws";

/** Connects to the isolate whose inspector title contains `title` ("core:user:" is the user Worker). */
export async function connectInspector({ port, title = "core:user:" }) {
  const targets = await (await fetch(`http://127.0.0.1:${port}/json`)).json();
  const target = targets.find((t) => String(t.title).includes(title));
  if (!target) throw new Error(`heap sampler: no inspector target "${title}" (${targets.map((t) => t.title).join(", ")})`);
  const ws = new WebSocket(target.webSocketDebuggerUrl);
  await new Promise((resolve, reject) => ws.once("open", resolve).once("error", reject));
  let id = 0;
  const pending = new Map();
  ws.on("message", (m) => {
    const d = JSON.parse(String(m));
    if (!d.id || !pending.has(d.id)) return;
    pending.get(d.id)(d.result);
    pending.delete(d.id);
  });
  const send = (method, params = {}) =>
    new Promise((resolve) => {
      pending.set(++id, resolve);
      ws.send(JSON.stringify({ id, method, params }));
    });
  return { send, close: () => ws.close() };
}

/** Used heap right after a full collection (forced by taking a heap snapshot, whose chunks are dropped). */
export async function liveHeapMb(inspector) {
  await inspector.send("HeapProfiler.takeHeapSnapshot", { reportProgress: false, captureNumericValue: false });
  return (await inspector.send("Runtime.getHeapUsage")).usedSize / 2 ** 20;
}

/**
 * Samples `Runtime.getHeapUsage` as often as the isolate lets it until `stop()`, which returns the samples
 * ({ at, usedMb, live }); every `liveEvery`-th sample is taken after a full collection (`live: true`).
 */
export function sampleHeap(inspector, { liveEvery = 0, intervalMs = 1 } = {}) {
  const samples = [];
  let running = true;
  const loop = (async () => {
    for (let n = 1; running; n++) {
      const live = liveEvery > 0 && n % liveEvery === 0;
      const usedMb = live ? await liveHeapMb(inspector) : (await inspector.send("Runtime.getHeapUsage")).usedSize / 2 ** 20;
      samples.push({ at: performance.now(), usedMb, live });
      await new Promise((r) => setTimeout(r, intervalMs));
    }
  })();
  return {
    async stop() {
      running = false;
      await loop;
      return samples;
    },
  };
}
