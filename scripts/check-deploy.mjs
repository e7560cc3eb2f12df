#!/usr/bin/env node
// `npm run test:deploy` (part of `npm test`): builds what `wrangler deploy` would upload, offline, so a wrangler.toml
// or bundle that would not deploy fails the suite instead of the first deploy (decision 018). Needs `remix build`
// first (npm test runs test:unit, which builds, before it). No login and no network: `--dry-run` stops before the
// upload, and the placeholder database_id and the [ai] binding are only written into the metadata, never checked.
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { offlineEnv } from "./lib/d1.mjs";

const root = fileURLToPath(new URL("..", import.meta.url));
if (!existsSync(join(root, "build/server/index.js"))) {
  console.error("test:deploy: build/server/index.js is missing — run `npm run build` first.");
  process.exit(1);
}
const out = mkdtempSync(join(tmpdir(), "helio-deploy-"));
try {
  const res = spawnSync(
    process.execPath,
    [join(root, "node_modules/wrangler/bin/wrangler.js"), "deploy", "--dry-run", "--outdir", out],
    {
      cwd: root,
      env: offlineEnv,
      encoding: "utf8",
    },
  );
  const output = `${res.stdout}${res.stderr}`;
  if (res.status !== 0) {
    console.error(output);
    console.error(`test:deploy: wrangler deploy --dry-run exited ${res.status}`);
    process.exit(1);
  }
  // A misspelt or unknown setting is only a warning to wrangler (and then silently not deployed): here it fails.
  // eslint-disable-next-line no-control-regex -- terminal colour codes in wrangler's output
  const plain = output.replace(/\u001b\[[0-9;]*m/g, "");
  if (/\[WARNING\]/.test(plain)) {
    console.error(plain);
    console.error("test:deploy: wrangler warned about the configuration (above)");
    process.exit(1);
  }
  const bundles = readdirSync(out).filter((f) => f.endsWith(".js"));
  if (bundles.length !== 1) {
    console.error(output);
    console.error(`test:deploy: expected one bundled .js in the output, found ${bundles.join(", ") || "none"}`);
    process.exit(1);
  }
  // wrangler lists the bindings it would deploy; each one the Worker relies on must be there.
  const missing = ["env.DB", "env.JOBS", "env.TASKS", "env.AI", "env.ASSETS"].filter((b) => !output.includes(b));
  if (missing.length) {
    console.error(output);
    console.error(`test:deploy: the dry run does not list ${missing.join(", ")}`);
    process.exit(1);
  }
  const size = statSync(join(out, bundles[0])).size;
  const total = /Total Upload: ([^\n]+)/.exec(output)?.[1]?.trim();
  console.log(
    `test:deploy: wrangler deploy --dry-run OK — ${bundles[0]} ${(size / 1024).toFixed(0)} KiB${total ? ` (upload ${total})` : ""}`,
  );
} finally {
  rmSync(out, { recursive: true, force: true });
}
