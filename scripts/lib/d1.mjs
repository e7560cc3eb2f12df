// Runs SQL against the D1 database through wrangler (local by default, --remote for the deployed one).
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
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
  const out = execFileSync(process.execPath, args, {
    cwd: root,
    env: offlineEnv,
    encoding: "utf8",
    stdio: ["ignore", "pipe", "pipe"],
  });
  const parsed = JSON.parse(out.slice(out.indexOf("[")));
  return parsed.at(-1)?.results ?? [];
}

export function migrate(opts = {}) {
  const args = [wranglerBin, "d1", "migrations", "apply", "DB", opts.remote ? "--remote" : "--local"];
  if (opts.persistTo) args.push("--persist-to", opts.persistTo);
  execFileSync(process.execPath, args, {
    cwd: root,
    env: { ...offlineEnv, CI: "true" },
    stdio: ["ignore", "inherit", "inherit"],
  });
}

/**
 * A connection for bulk work (npm run db:backup / db:restore): `batch(sqls)` runs read statements together and returns
 * each one's rows; `execute(script)` runs a SQL script (text with statements separated by `;`, triggers included, or
 * an array of single statements) as one transaction. Local: Miniflare on the SQLite file `wrangler dev` uses (in process, fast). Remote — or local with
 * `viaWrangler`, which runs the remote code path offline — `wrangler d1 execute` (--command for reads, --file for
 * scripts: D1's import, which rolls back as a whole when it fails).
 * @param {{ remote?: boolean, persistTo?: string, viaWrangler?: boolean }} [opts]
 */
export async function openD1(opts = {}) {
  if (opts.remote || opts.viaWrangler) return wranglerSession(opts);
  const [{ Miniflare }, { unstable_readConfig, unstable_splitSqlQuery }] = await Promise.all([
    import("miniflare"),
    import("wrangler"),
  ]);
  const config = unstable_readConfig({ config: join(root, "wrangler.toml") });
  const binding = config.d1_databases.find((d) => d.binding === "DB");
  // Where and under which id wrangler keeps the local database (wrangler's executeLocally does the same).
  const persist = opts.persistTo ? resolve(process.cwd(), opts.persistTo) : join(root, ".wrangler", "state");
  const mf = new Miniflare({
    modules: true,
    script: "",
    d1Persist: join(persist, "v3", "d1"),
    d1Databases: { DB: binding.preview_database_id ?? binding.database_id },
  });
  const db = await mf.getD1Database("DB");
  return {
    where: `the local database in ${persist}`,
    async batch(sqls) {
      return (await db.batch(sqls.map((s) => db.prepare(s)))).map((r) => r.results);
    },
    async execute(script) {
      const statements = (Array.isArray(script) ? script : unstable_splitSqlQuery(script)).filter((s) => s.trim());
      if (statements.length) await db.batch(statements.map((s) => db.prepare(s)));
    },
    close: () => mf.dispose(),
  };
}

function wranglerSession({ remote = false, persistTo }) {
  const target = [remote ? "--remote" : "--local", ...(persistTo && !remote ? ["--persist-to", persistTo] : [])];
  const run = (args) => {
    const out = execFileSync(
      process.execPath,
      [wranglerBin, "d1", "execute", "DB", ...target, "--json", "--yes", ...args],
      {
        cwd: root,
        env: { ...offlineEnv, CI: "true" },
        encoding: "utf8",
        maxBuffer: 1 << 30,
        stdio: ["ignore", "pipe", "pipe"],
      },
    );
    return JSON.parse(out.slice(out.indexOf("[")));
  };
  const scratch = mkdtempSync(join(tmpdir(), "helio-d1-"));
  return {
    where: remote
      ? "the remote database (binding DB in wrangler.toml)"
      : `the local database${persistTo ? ` in ${persistTo}` : ""} (through wrangler)`,
    async batch(sqls) {
      return run(["--command", sqls.join(";\n")]).map((r) => r.results ?? []);
    },
    async execute(script) {
      const file = join(scratch, "script.sql");
      writeFileSync(file, Array.isArray(script) ? script.map((s) => `${s};\n`).join("") : script);
      run(["--file", file]);
    },
    async close() {
      rmSync(scratch, { recursive: true, force: true });
    },
  };
}

/** --flag value pairs and bare --switches; anything else in `_`. */
export function parseArgs(argv) {
  const out = { _: [] };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (!a.startsWith("--")) {
      out._.push(a);
      continue;
    }
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
