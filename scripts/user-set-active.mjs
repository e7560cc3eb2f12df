#!/usr/bin/env node
// npm run user:deactivate -- --email a@b.c [--hand-off-to c@d.e] [--remote]   |   npm run user:activate -- --email a@b.c
import { parseArgs } from "./lib/d1.mjs";
import { setUserActive } from "./lib/users.mjs";

const [mode, ...rest] = process.argv.slice(2);
const args = parseArgs(rest);
if (!args.email || !["activate", "deactivate"].includes(mode)) {
  console.error("Usage: npm run user:deactivate -- --email … [--hand-off-to <email>] [--remote]");
  process.exit(2);
}
try {
  setUserActive(args.email, mode === "activate", {
    remote: Boolean(args.remote),
    persistTo: args["persist-to"],
    handOffTo: args["hand-off-to"],
  });
  console.log(`${mode === "activate" ? "Activated" : "Deactivated"} ${args.email}.`);
} catch (err) {
  console.error(err.message);
  process.exit(1);
}
