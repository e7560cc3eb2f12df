// Entry used by `--d1-apart` (bench/lib/helio.mjs): wraps the bundled Helio Worker (copied next to it as ./app.js)
// and gives it a D1 binding whose statements run in another workerd process (bench/lib/d1-host-worker.js), as
// production's D1 runs on other machines. Helio's thread still pays what production's binding does per round trip —
// the statements serialised as JSON, a subrequest, the answer parsed and rows made objects — but not SQLite or
// Miniflare's D1 request handling (the binding: bench/lib/remote-d1.js).
import app from "./app.js";
import { RemoteD1 } from "./remote-d1.js";

// One binding and one env per env object, so the app's per-binding caches (the drizzle client) see the same objects.
const envs = new WeakMap();
function withRemoteD1(env) {
  let e = envs.get(env);
  if (!e) envs.set(env, (e = { ...env, DB: new RemoteD1(env.BENCH_D1_URL) }));
  return e;
}

export default {
  fetch: (request, env, ctx) => app.fetch(request, withRemoteD1(env), ctx),
  scheduled: (controller, env, ctx) => app.scheduled(controller, withRemoteD1(env), ctx),
  queue: (batch, env, ctx) => app.queue(batch, withRemoteD1(env), ctx),
};
