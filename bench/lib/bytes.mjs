// Bytes a deploy ships (issue 15): the Worker bundle gzipped, and the JavaScript each route makes the browser load
// (entry + root + the route's module and every chunk they import, gzipped), from the Remix client manifest.
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { gzipSync } from "node:zlib";

const gz = (file) => gzipSync(readFileSync(file), { level: 9 }).length;

/** Gzipped bytes of the Worker bundle bundleWorker() wrote (`app.js`: wrangler --dry-run's single output). */
export function workerBundleBytes(outDir) {
  return gz(join(outDir, "app.js"));
}

/** For each route id: the gzipped bytes of the JavaScript a first visit to it downloads (each file once). */
export function routeJsBytes(root) {
  const buildDir = join(root, "public/build");
  const manifestFile = readdirSync(buildDir).find((f) => /^manifest-.*\.js$/.test(f));
  if (!manifestFile) throw new Error("no client manifest: run remix build first");
  const manifest = JSON.parse(
    readFileSync(join(buildDir, manifestFile), "utf8")
      .replace(/^window\.__remixManifest=/, "")
      .replace(/;\s*$/, ""),
  );
  const fileOf = (url) => join(root, "public", url);
  const sizes = new Map();
  const size = (url) => {
    if (!sizes.has(url)) sizes.set(url, statSync(fileOf(url)) && gz(fileOf(url)));
    return sizes.get(url);
  };
  const chain = (id) => {
    const out = [];
    for (let r = manifest.routes[id]; r; r = r.parentId ? manifest.routes[r.parentId] : null) out.push(r);
    return out;
  };
  const result = {};
  for (const id of Object.keys(manifest.routes)) {
    const urls = new Set([manifest.entry.module, ...manifest.entry.imports, manifestFile && `/build/${manifestFile}`]);
    for (const r of chain(id)) for (const u of [r.module, ...(r.imports ?? [])]) urls.add(u);
    result[id] = [...urls].reduce((sum, u) => sum + size(u), 0);
  }
  return result;
}
