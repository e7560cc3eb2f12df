#!/usr/bin/env node
// npm run db:restore -- <backup.ndjson.gz> [--remote | --persist-to dir]
// Restores a `npm run db:backup` file into an EMPTY database: the local one (delete .wrangler/state/v3/d1 first, or
// give a fresh --persist-to folder) or, with --remote, the one wrangler.toml's DB binding names (create a new one with
// `wrangler d1 create` and put its id there). Then applies this checkout's newer migrations, if any.
import { restoreDatabase } from "./lib/backup.mjs";
import { migrate, openD1, parseArgs } from "./lib/d1.mjs";

const args = parseArgs(process.argv.slice(2));
const file = args._[0] ?? args.in;
if (typeof file !== "string") {
  console.error("Usage: npm run db:restore -- <backup.ndjson.gz> [--remote | --persist-to dir]");
  process.exit(2);
}
const remote = Boolean(args.remote);
const persistTo = args["persist-to"];

const d1 = await openD1({ remote, persistTo, viaWrangler: Boolean(args["via-wrangler"]) });
let result;
try {
  console.log(`Restoring ${file} into ${d1.where}...`);
  result = await restoreDatabase(d1, file, { log: console.log });
} catch (err) {
  console.error(`Restore failed: ${err.message}`);
} finally {
  await d1.close();
}
if (!result) process.exit(1);
const total = Object.values(result.rows).reduce((a, b) => a + b, 0);
console.log(
  `Restored ${total.toLocaleString("en-US")} rows of ${Object.keys(result.rows).length} tables (backup of ${result.header.createdAt}).`,
);
if (result.newerMigrations.length) {
  console.log(`Applying ${result.newerMigrations.length} migrations newer than the backup...`);
  migrate({ remote, persistTo });
}
