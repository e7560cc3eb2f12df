// A Chrome DevTools Protocol session with one isolate of workerd (Miniflare's `inspectorPort`): bench/lib/cpu-profile.mjs
// and bench/lib/heap-sampler.mjs attach through it.
import WebSocket from "ws";

/** Connects to the isolate whose inspector title contains `title` ("core:user:" is the user Worker). */
export async function connectInspector({ port, title = "core:user:" }) {
  const targets = await (await fetch(`http://127.0.0.1:${port}/json`)).json();
  // An exact ending first: "worker d1:db" is also the start of "worker d1:db:<name>".
  const target =
    targets.find((t) => String(t.title).endsWith(title)) ?? targets.find((t) => String(t.title).includes(title));
  if (!target) throw new Error(`inspector: no target "${title}" (${targets.map((t) => t.title).join(", ")})`);
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
