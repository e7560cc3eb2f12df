// `--d1-apart` (bench/lib/helio.mjs): local D1 in a workerd process of its own, answering the statements that
// bench/lib/d1-apart-worker.js forwards from Helio's process. In production D1 is a service on other machines and
// its SQLite never runs on the Worker's thread; locally Miniflare runs it, and its own request handling, on the one
// thread that also makes Helio's POSTs. This host lets a bench measure Helio with that work off its thread.
export default {
  /** POST { statements: [{ sql, params }], raw?: true } → { results } (one per statement) or { rows } (raw). */
  async fetch(request, env) {
    const { statements, raw } = await request.json();
    try {
      const stmts = statements.map((s) => env.DB.prepare(s.sql).bind(...s.params));
      if (raw) return Response.json({ rows: await stmts[0].raw({ columnNames: true }) });
      const results = stmts.length === 1 ? [await stmts[0].all()] : await env.DB.batch(stmts);
      return Response.json({ results });
    } catch (e) {
      return Response.json({ error: String(e?.message ?? e) }, { status: 500 });
    }
  },
};
