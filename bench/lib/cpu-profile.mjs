// `--cpu-profile`: V8's sampling profiler on the Helio Worker's isolate through workerd's inspector (Miniflare's
// `inspectorPort`), summarised as the functions with the most self time. Names in the bundle are minified, so each
// line carries the start of the function's source from the bundle to tell them apart. CPU_PROFILE_OUT=<file> also
// writes the raw profile (Chrome DevTools' .cpuprofile) for inclusive times.
import { readFileSync, writeFileSync } from "node:fs";
import { connectInspector } from "./inspector.mjs";

/**
 * Starts sampling the isolate whose inspector title contains `title` ("core:user:" is the user Worker).
 * CPU_PROFILE_ISOLATE=<title> samples another one instead, e.g. "worker d1:db" (local D1's Durable Object: it showed
 * Miniflare's own request handling — zod and fetch routing — at ~30% of that isolate's time, SQLite under it).
 */
export async function startCpuProfile({
  port,
  title = process.env.CPU_PROFILE_ISOLATE ?? "core:user:",
  intervalUs = 100,
}) {
  const { send, close } = await connectInspector({ port, title });
  await send("Profiler.enable");
  await send("Profiler.setSamplingInterval", { interval: intervalUs });
  await send("Profiler.start");
  return {
    /** Stops sampling; the `top` functions by self time, with their share of the sampled time that was not idle. */
    async stop({ bundlePath, top = Number(process.env.CPU_PROFILE_TOP ?? 25) }) {
      const { profile } = await send("Profiler.stop");
      close();
      if (process.env.CPU_PROFILE_OUT) writeFileSync(process.env.CPU_PROFILE_OUT, JSON.stringify(profile));
      const nodes = new Map(profile.nodes.map((n) => [n.id, n]));
      const self = new Map();
      let busy = 0;
      profile.samples.forEach((nodeId, i) => {
        const f = nodes.get(nodeId).callFrame;
        const us = profile.timeDeltas[i] ?? 0;
        if (f.functionName === "(idle)") return;
        const key = `${f.url.split("/").pop() || "(native)"}:${f.lineNumber}:${f.columnNumber}\t${f.functionName || "(anonymous)"}`;
        self.set(key, (self.get(key) ?? 0) + us);
        busy += us;
      });
      const lines = readFileSync(bundlePath, "utf8").split("\n");
      const rows = [...self].sort((a, b) => b[1] - a[1]).slice(0, top);
      return [
        `CPU profile of the isolate "${title}": ${(busy / 1000).toFixed(0)} ms sampled outside idle; top ${rows.length} by self time`,
        ...rows.map(([key, us]) => {
          const [where, name] = key.split("\t");
          const m = /^app\.js:(\d+):(\d+)$/.exec(where);
          const source = m
            ? ` «${lines[Number(m[1])]?.slice(Number(m[2]), Number(m[2]) + 90).replace(/\s+/g, " ")}»`
            : "";
          return `${(us / 1000).toFixed(1).padStart(8)} ms ${((100 * us) / busy).toFixed(1).padStart(5)}%  ${name} ${where}${source}`;
        }),
      ].join("\n");
    },
  };
}
