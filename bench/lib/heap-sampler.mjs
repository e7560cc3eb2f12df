// The Helio Worker's heap through workerd's inspector (Miniflare's `inspectorPort`), as bench/lib/cpu-profile.mjs
// attaches to it. workerd answers an inspector command only while the isolate is not running JavaScript — between
// I/O (a timer; not a local D1 round trip, hence bench/lib/heap-probe-worker.js) — never in the middle of synchronous
// work, so these are samples at those moments. workerd never answers HeapProfiler.collectGarbage, but a heap snapshot
// starts with a full collection: the usage read right after one is the live heap, what the Worker must hold.
import { connectInspector } from "./inspector.mjs";

export { connectInspector };

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
      const usedMb = live
        ? await liveHeapMb(inspector)
        : (await inspector.send("Runtime.getHeapUsage")).usedSize / 2 ** 20;
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
