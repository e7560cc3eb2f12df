#!/usr/bin/env node
// A/B of a few pages, one request at a time: each app dir given (this checkout, or a copy with a proposed change and
// node_modules symlinked) is bundled, migrated, seeded small (2,000 contacts, 20,000 messages, the newest contact's thread 40 longer) and
// asked for the contact page, /knowledge-base (the layout alone) and /api/contacts 30 times to warm, then 3 × 100
// times; each line gives the bytes and p50 / p90 in ms. Give the dirs alternately (A B A B): runs minutes apart on a
// shared machine differ by ±15%, so one pair says little. A dir's existing build/ is used as is: delete it (or run
// `npx remix build` there) after a change.
//
//   node bench/page-ab.mjs <app dir> [<app dir> …]
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { bundleWorker, createBenchUser, login, migrate, startHelioWithoutProvider } from "./lib/helio.mjs";
import { lengthenThread, seedAtScale } from "./lib/scale-seed.mjs";
const dirs = process.argv.slice(2);
const pct = (a, p) => a.sort((x, y) => x - y)[Math.floor(p * (a.length - 1))];
for (const appDir of dirs) {
  const out = mkdtempSync(join(tmpdir(), "cp-"));
  const scriptPath = bundleWorker(out, { appDir });
  const cleanups = [];
  const h = await startHelioWithoutProvider({ scriptPath, cleanups });
  await migrate(h.db);
  const userId = await createBenchUser(h.db);
  const cookie = await login(h.mf);
  await seedAtScale(h.db, { contacts: 2000, messages: 20000, campaigns: 20, userId });
  const busy = await h.db.prepare("SELECT contact_id FROM messages ORDER BY id DESC LIMIT 1").first("contact_id");
  await lengthenThread(h.db, { contactId: busy, messages: 40, userId });
  const get = async (path) => {
    const res = await h.mf.dispatchFetch(`http://127.0.0.1${path}`, {
      headers: { Cookie: cookie, Accept: "text/html" },
    });
    const b = await res.arrayBuffer();
    if (res.status !== 200) throw new Error(`${path} ${res.status} ${new TextDecoder().decode(b).slice(0, 3000)}`);
    return b.byteLength;
  };
  const paths = [`/contacts/${busy}`, "/knowledge-base", "/api/contacts?limit=50"];
  const line = [appDir];
  for (const p of paths) {
    const bytes = await get(p);
    for (let i = 0; i < 30; i++) await get(p);
    const t = [];
    for (let r = 0; r < 3; r++)
      for (let i = 0; i < 100; i++) {
        const s = performance.now();
        await get(p);
        t.push(performance.now() - s);
      }
    line.push(`${p.split("?")[0]} ${bytes}B p50 ${pct(t, 0.5).toFixed(2)} p90 ${pct(t, 0.9).toFixed(2)}`);
  }
  console.log(line.join(" | "));
  // Last in, first out: the Worker, then its D1 directory.
  while (cleanups.length) await cleanups.pop()();
  rmSync(out, { recursive: true, force: true });
}
process.exit(0);
