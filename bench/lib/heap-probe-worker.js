// Entry used by bench/spreadsheet-import.mjs: the bundled Helio Worker (copied next to it as ./app.js) with one change
// that only the measurement sees — after each D1 call resolves, the Worker waits 1 ms on a timer before carrying on.
// workerd answers inspector commands only when the isolate is idle, and a local D1 round trip never leaves it idle
// (a timer does), so this is what lets the bench read the heap at each of the app's D1 awaits — where a streamed
// upload stands between chunks. Nothing else differs from app.js.
import app from "./app.js";

const pause = () => new Promise((r) => setTimeout(r, 1));
const after = async (promise) => {
  const value = await promise;
  await pause();
  return value;
};

// Statements must reach the real D1 batch() unwrapped.
const realStmt = new WeakMap();
function wrapStmt(stmt) {
  const w = {
    bind: (...args) => wrapStmt(stmt.bind(...args)),
    all: () => after(stmt.all()),
    run: () => after(stmt.run()),
    raw: (o) => after(stmt.raw(o)),
    first: (c) => after(stmt.first(c)),
  };
  realStmt.set(w, stmt);
  return w;
}
const wrapDb = (db) => ({
  prepare: (sql) => wrapStmt(db.prepare(sql)),
  batch: (stmts) => after(db.batch(stmts.map((s) => realStmt.get(s) ?? s))),
  exec: (sql) => after(db.exec(sql)),
  dump: () => db.dump(),
});

export default {
  fetch: (request, env, ctx) => app.fetch(request, { ...env, DB: wrapDb(env.DB) }, ctx),
  scheduled: (controller, env, ctx) => app.scheduled(controller, env, ctx),
  queue: (batch, env, ctx) => app.queue(batch, env, ctx),
};
