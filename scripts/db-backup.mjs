#!/usr/bin/env node
// npm run db:backup -- [--out file.ndjson.gz] [--remote | --persist-to dir] [--page-rows 1000]
// Every row of every table of the D1 database (not the FTS5 indexes, which a restore rebuilds) into one gzipped NDJSON
// file. `wrangler d1 export` refuses databases with virtual tables; this reads the tables page by page instead.
import { mkdirSync } from "node:fs";
import { dirname } from "node:path";
import { backupDatabase, PAGE_ROWS } from "./lib/backup.mjs";
import { openD1, parseArgs } from "./lib/d1.mjs";

const args = parseArgs(process.argv.slice(2));
const remote = Boolean(args.remote);
const stamp = new Date().toISOString().slice(0, 19).replace(/[-:]/g, "").replace("T", "-");
const out = typeof args.out === "string" ? args.out : `backups/helio-${remote ? "remote" : "local"}-${stamp}.ndjson.gz`;
const pageRows = args["page-rows"] === undefined ? PAGE_ROWS : Number(args["page-rows"]);
if (!Number.isInteger(pageRows) || pageRows < 1) {
  console.error("--page-rows must be a whole number ≥ 1");
  process.exit(2);
}

const d1 = await openD1({ remote, persistTo: args["persist-to"], viaWrangler: Boolean(args["via-wrangler"]) });
try {
  console.log(`Backing up ${d1.where} to ${out}...`);
  mkdirSync(dirname(out), { recursive: true });
  const rows = await backupDatabase(d1, out, { pageRows, source: remote ? "remote" : "local", log: console.log });
  const total = Object.values(rows).reduce((a, b) => a + b, 0);
  console.log(`Backed up ${total.toLocaleString("en-US")} rows of ${Object.keys(rows).length} tables to ${out}.`);
} catch (err) {
  console.error(`Backup failed: ${err.message}`);
  process.exitCode = 1;
} finally {
  await d1.close();
}
