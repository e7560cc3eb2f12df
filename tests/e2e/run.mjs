#!/usr/bin/env node
// Browser end-to-end tests: one real `wrangler dev`, every *.test.mjs here, each scenario with JS on and off.
import { spawnSync } from "node:child_process";
import { readdirSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { startServer } from "./server.mjs";

const dir = fileURLToPath(new URL(".", import.meta.url));
const files = readdirSync(dir)
  .filter((f) => f.endsWith(".test.mjs"))
  .filter((f) => !process.argv[2] || f.includes(process.argv[2]))
  .map((f) => dir + f);

const server = await startServer();
let status = 1;
try {
  const res = spawnSync(process.execPath, ["--test", "--test-concurrency=1", "--test-reporter=spec", ...files], {
    stdio: "inherit",
    env: { ...process.env, E2E_BASE_URL: server.base },
  });
  status = res.status ?? 1;
} finally {
  await server.stop();
}
process.exit(status);
