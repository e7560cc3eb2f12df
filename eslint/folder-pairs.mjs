// Counts the pairs of top-level app folders that import each other (relative and "~/" imports, *.test.* files left
// out), the figure issue 25 tracks: `node eslint/folder-pairs.mjs` (by folder) or `--units` (by the floors' units,
// where the queue and cron dispatchers stand with the entry points). `-v` lists the imports behind each pair.
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { unitOf } from "./floors.js";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const app = path.join(ROOT, "app");
const byUnits = process.argv.includes("--units");
const verbose = process.argv.includes("-v");

const files = [];
(function walk(dir) {
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) walk(p);
    else if (/\.(ts|tsx|js|mjs)$/.test(e.name) && !/\.test\./.test(e.name)) files.push(p);
  }
})(app);

const folderOf = (file) => {
  const rel = path.relative(ROOT, file);
  if (byUnits) return unitOf(rel);
  const parts = path.relative(app, file).split(path.sep);
  return parts.length > 1 ? parts[0] : "(app root)";
};
const resolve = (from, spec) => {
  if (spec.startsWith("~/")) return path.join(app, spec.slice(2));
  if (spec.startsWith("./") || spec.startsWith("../")) return path.resolve(path.dirname(from), spec);
  return null;
};

const edges = new Map();
const IMPORT =
  /(?:import|export)\s+(?:type\s+)?(?:[^'";]*?\sfrom\s+)?["']([^"']+)["']|import\(\s*["']([^"']+)["']\s*\)/g;
for (const file of files) {
  for (const m of fs.readFileSync(file, "utf8").matchAll(IMPORT)) {
    const target = resolve(file, m[1] ?? m[2]);
    if (!target || !target.startsWith(app + path.sep)) continue;
    const a = folderOf(file);
    const b = folderOf(target + ".ts");
    if (!a || !b || a === b) continue;
    const key = `${a}→${b}`;
    if (!edges.has(key)) edges.set(key, []);
    edges.get(key).push(`${path.relative(app, file)} → ${m[1] ?? m[2]}`);
  }
}
const pairs = [...edges.keys()]
  .map((k) => k.split("→"))
  .filter(([a, b]) => a < b && edges.has(`${b}→${a}`))
  .sort((x, y) => `${x}`.localeCompare(`${y}`));
console.log(`${pairs.length} pairs of ${byUnits ? "units" : "folders"} import each other`);
for (const [a, b] of pairs) {
  console.log(`  ${a} ↔ ${b}`);
  if (verbose) for (const e of [...edges.get(`${a}→${b}`), ...edges.get(`${b}→${a}`)]) console.log(`      ${e}`);
}
