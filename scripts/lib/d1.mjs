// Runs SQL against the D1 database through wrangler (local by default, --remote for the deployed one).
import { execFileSync } from "node:child_process";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("../..", import.meta.url));
const wranglerBin = fileURLToPath(new URL("../../node_modules/wrangler/bin/wrangler.js", import.meta.url));

export const offlineEnv = {
  ...process.env,
  CLOUDFLARE_CF_FETCH_ENABLED: "false",
  WRANGLER_SEND_ERROR_REPORTS: "false",
  NO_UPDATE_NOTIFIER: "1",
};

/** SQL string literal. */
export const q = (v) => (v === null || v === undefined ? "NULL" : `'${String(v).replaceAll("'", "''")}'`);

/**
 * @param {string} sql
 * @param {{ remote?: boolean, persistTo?: string }} [opts]
 * @returns {any[]} result rows of the last statement
 */
export function d1(sql, opts = {}) {
  const args = [wranglerBin, "d1", "execute", "DB", opts.remote ? "--remote" : "--local", "--json", "--command", sql];
  if (opts.persistTo) args.push("--persist-to", opts.persistTo);
  const out = execFileSync(process.execPath, args, { cwd: root, env: offlineEnv, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] });
  const parsed = JSON.parse(out.slice(out.indexOf("[")));
  return parsed.at(-1)?.results ?? [];
}

export function migrate(opts = {}) {
  const args = [wranglerBin, "d1", "migrations", "apply", "DB", opts.remote ? "--remote" : "--local"];
  if (opts.persistTo) args.push("--persist-to", opts.persistTo);
  execFileSync(process.execPath, args, { cwd: root, env: { ...offlineEnv, CI: "true" }, stdio: ["ignore", "inherit", "inherit"] });
}

/** --flag value pairs and bare --switches. */
export function parseArgs(argv) {
  const out = {};
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (!a.startsWith("--")) continue;
    const key = a.slice(2);
    const next = argv[i + 1];
    if (next === undefined || next.startsWith("--")) out[key] = true;
    else {
      out[key] = next;
      i++;
    }
  }
  return out;
}
