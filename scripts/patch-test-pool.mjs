// Applies the upstream fix for a bug in @cloudflare/vitest-pool-workers 0.15.1 (workers-sdk issue #15092, fixed by
// PR #15106): the wrapper class of the Worker's entrypoint wrapped its own prototype in a new Proxy on every
// construction, i.e. on every `exports.default.fetch` a test makes. Each property read then walked one more `get` trap
// per earlier request — quadratic time — and after ~1,800 requests in one test file the Worker threw
// "RangeError: Maximum call stack size exceeded" (the route matrix makes ~2,000). Installing the proxy once, as the
// fix does, keeps the trap behaviour. Runs on `npm install` (postinstall); idempotent; a version without the pattern
// is left alone with a note.
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

const file = fileURLToPath(
  new URL(
    "../node_modules/@cloudflare/vitest-pool-workers/dist/worker/lib/cloudflare/test-internal.mjs",
    import.meta.url,
  ),
);
const BUGGY = "\tfunction Class(...args) {\n\t\tClass.prototype = new Proxy(Class.prototype, {";
const FIXED =
  "\tlet prototypeProxied = false; // patched by scripts/patch-test-pool.mjs (workers-sdk #15106)\n" +
  "\tfunction Class(...args) {\n\t\tif (!prototypeProxied) prototypeProxied = true, Class.prototype = new Proxy(Class.prototype, {";

if (!existsSync(file)) process.exit(0); // a production install without dev dependencies
const source = readFileSync(file, "utf8");
if (source.includes("prototypeProxied")) process.exit(0);
if (!source.includes(BUGGY)) {
  console.warn("patch-test-pool: the wrapper code changed upstream; nothing patched (check workers-sdk #15092)");
  process.exit(0);
}
writeFileSync(file, source.replace(BUGGY, FIXED));
console.log("patch-test-pool: vitest-pool-workers wrapper installs its prototype proxy once");
