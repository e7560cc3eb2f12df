// Small fixes to installed dependencies, applied on `npm install` (postinstall) and idempotent. Each patch is a list
// of exact [original, replacement] edits to one pinned version's files; each original must occur exactly once.
// - test-pool (decision 039): @cloudflare/vitest-pool-workers 0.15.1 wrapped its entrypoint's prototype in a new Proxy
//   on every construction (workers-sdk #15092, fixed upstream by #15106); dev-only, so a changed file is left alone
//   with a note.
// - route-matching (decision 062): @remix-run/router 1.23 flattens and ranks every route on every matchRoutes call and
//   compiles a RegExp per path it tries; a page request calls it five times or more. The ranked branches are cached
//   per routes array (recomputed after patchRoutes adds children in place), the first matching branch per pathname,
//   and compiled paths by pattern — what react-router PRs #12098 and #14866 proposed upstream.
// - fizz-string-chunks (decision 062): react-dom 18.3's server renderer for Workers turns every attribute name, value
//   and text into bytes with its own TextEncoder.encode call (a C++ call in workerd) and copies them into 512-byte
//   views, each enqueued on the stream; a page made thousands of calls and ~200 chunks. Chunks stay strings and are
//   encoded once per flush — what React 19 moved to (ReactServerStreamConfigEdge writes strings with encodeInto).
// A production patch whose original is missing fails the install, so an upgrade cannot drop it silently;
// scripts/patch-dependencies.node.test.ts checks each patched file against the original it replaces.
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

const mark = (id) => `patched by scripts/patch-dependencies.mjs (${id})`;
const at = (path) => fileURLToPath(new URL(`../node_modules/${path}`, import.meta.url));

const ROUTER_MATCH_ORIGINAL = [
  "  let branches = flattenRoutes(routes);",
  "  rankRouteBranches(branches);",
  "  let matches = null;",
  "  let decoded = decodePath(pathname);",
  "  for (let i = 0; matches == null && i < branches.length; ++i) {",
  "    // Incoming pathnames are generally encoded from either window.location",
  "    // or from router.navigate, but we want to match against the unencoded",
  "    // paths in the route definitions.  Memory router locations won't be",
  "    // encoded here but there also shouldn't be anything to decode so this",
  "    // should be a safe operation.  This avoids needing matchRoutes to be",
  "    // history-aware.",
  "    matches = matchRouteBranch(branches[i], decoded, allowPartial);",
  "  }",
  "  return matches;",
  "}",
  "",
].join("\n");

/** @type {{ id: string, files: string[], optional?: boolean, edits: [string, string][] }[]} */
export const PATCHES = [
  {
    id: "test-pool",
    optional: true,
    files: [at("@cloudflare/vitest-pool-workers/dist/worker/lib/cloudflare/test-internal.mjs")],
    edits: [
      [
        "\tfunction Class(...args) {\n\t\tClass.prototype = new Proxy(Class.prototype, {",
        `\tlet prototypeProxied = false; // ${mark("test-pool")}: workers-sdk #15106\n` +
          "\tfunction Class(...args) {\n\t\tif (!prototypeProxied) prototypeProxied = true, Class.prototype = new Proxy(Class.prototype, {",
      ],
    ],
  },
  {
    id: "route-matching",
    // The browser bundle takes the ES module, the Worker's the CommonJS one (the server runtime require()s it).
    files: [at("@remix-run/router/dist/router.js"), at("@remix-run/router/dist/router.cjs.js")],
    edits: [
      [
        ROUTER_MATCH_ORIGINAL,
        `  // ${mark("route-matching")}: the table ranked once; a pathname seen before goes straight to its branch.
  let table = rankedTable(routes);
  let branches = table.branches;
  let matches = null;
  let decoded = decodePath(pathname);
  let hitKey = (allowPartial ? "1" : "0") + decoded;
  let hit = table.hits.get(hitKey);
  if (hit !== undefined) return hit < 0 ? null : matchRouteBranch(branches[hit], decoded, allowPartial);
  let i = 0;
  for (; matches == null && i < branches.length; ++i) {
    // Pathnames are matched decoded (see the upstream comment this replaces).
    matches = matchRouteBranch(branches[i], decoded, allowPartial);
  }
  if (table.hits.size >= MATCHED_PATHS_MAX) table.hits.clear();
  table.hits.set(hitKey, matches == null ? -1 : i - 1);
  return matches;
}
`,
      ],
      [
        "function flattenRoutes(routes, branches, parentsMeta, parentPath) {\n",
        `// ${mark("route-matching")}: a route table's ranked branches, computed once per array, beside the index of the
// first branch each pathname matched (-1: none), which depends only on those branches and the pathname; at most
// MATCHED_PATHS_MAX pathnames per shape, then it starts over. patchRoutesImpl pushes children into existing arrays,
// so it bumps routesVersion and every table is recomputed on its next use.
// The pathname → branch index map is shared by every array of the same shape (paths, index flags, case
// sensitivity, ids, nesting): flattening and ranking depend on nothing else, so the index is the same in each. Remix
// builds a new array of the same routes for every server render; those skip the scan.
let routesVersion = 0;
const rankedTables = new WeakMap();
const hitsByShape = new Map();
const MATCHED_PATHS_MAX = 1000;
const SHAPES_MAX = 50;
function routesShape(routes) {
  let shape = "";
  let walk = (list) => {
    for (let r of list) {
      shape += String(r.id) + "\\u0001" + (r.path == null ? "\\u0002" : r.path) + (r.index ? "\\u0003" : "") + (r.caseSensitive ? "\\u0004" : "");
      if (r.children && r.children.length > 0) {
        shape += "(";
        walk(r.children);
        shape += ")";
      } else shape += "\\u0005";
    }
  };
  walk(routes);
  return shape;
}
function rankedTable(routes) {
  let table = rankedTables.get(routes);
  if (table && table.version === routesVersion) return table;
  let branches = flattenRoutes(routes);
  rankRouteBranches(branches);
  let shape = routesShape(routes);
  let hits = hitsByShape.get(shape);
  if (!hits) {
    if (hitsByShape.size >= SHAPES_MAX) hitsByShape.clear();
    hits = new Map();
    hitsByShape.set(shape, hits);
  }
  table = { version: routesVersion, branches, hits };
  rankedTables.set(routes, table);
  return table;
}
function flattenRoutes(routes, branches, parentsMeta, parentPath) {\n`,
      ],
      [
        "function compilePath(path, caseSensitive, end) {\n",
        `// ${mark("route-matching")}: a pattern's RegExp and parameter list, compiled once. Callers only read both (the
// RegExp has no g flag, so it keeps no state); at most COMPILED_PATHS_MAX patterns are kept.
const compiledPaths = new Map();
const COMPILED_PATHS_MAX = 2000;
function compilePath(path, caseSensitive, end) {
  let key = (caseSensitive ? "1" : "0") + (end === false ? "0" : "1") + path;
  let compiled = compiledPaths.get(key);
  if (!compiled) {
    compiled = compilePathUncached(path, caseSensitive, end);
    if (compiledPaths.size < COMPILED_PATHS_MAX) compiledPaths.set(key, compiled);
  }
  return compiled;
}
function compilePathUncached(path, caseSensitive, end) {\n`,
      ],
      [
        "  childrenToPatch.push(...newRoutes);\n}\n",
        `  childrenToPatch.push(...newRoutes);\n  routesVersion++; // ${mark("route-matching")}\n}\n`,
      ],
    ],
  },
  {
    id: "fizz-string-chunks",
    files: [at("react-dom/cjs/react-dom-server.browser.production.min.js")],
    edits: [
      // writeChunk, writeChunkAndReturn, completeWriting, stringToChunk, stringToPrecomputedChunk. `l` is the pending
      // output (a Uint8Array view upstream, a string here), `n` how much of it is written.
      [
        "function p(a,b){if(0!==b.length)if(512<b.length)0<n&&(a.enqueue(new Uint8Array(l.buffer,0,n)),l=new Uint8Array(512),n=0),a.enqueue(b);else{var c=l.length-n;c<b.length&&(0===c?a.enqueue(l):(l.set(b.subarray(0,c),n),a.enqueue(l),b=b.subarray(c)),l=new Uint8Array(512),n=0);l.set(b,n);n+=b.length}}function t(a,b){p(a,b);return!0}function ba(a){l&&0<n&&(a.enqueue(new Uint8Array(l.buffer,0,n)),l=null,n=0)}var ca=new TextEncoder;function u(a){return ca.encode(a)}function w(a){return ca.encode(a)}",
        `/* ${mark("fizz-string-chunks")} */function p(a,b){0!==b.length&&(l=null===l?b:l+b,n+=b.length)}function t(a,b){p(a,b);return!0}function ba(a){l&&0<n&&a.enqueue(ca.encode(l));l=null;n=0}var ca=new TextEncoder;function u(a){return a}function w(a){return a}`,
      ],
      // beginWriting, inlined twice in flushCompletedQueues.
      ["function fd(a,b){l=new Uint8Array(512);n=0;", 'function fd(a,b){l="";n=0;'],
      ["A.splice(0,e);ba(b);l=new Uint8Array(512);n=0;", 'A.splice(0,e);ba(b);l="";n=0;'],
    ],
  },
];

/** The patched source, or null when it already carries the patch. Throws when an original is missing or repeated. */
export function applyPatch(patch, source) {
  if (source.includes(mark(patch.id))) return null;
  let out = source;
  for (const [from, to] of patch.edits) {
    const i = out.indexOf(from);
    if (i < 0 || out.indexOf(from, i + 1) >= 0) {
      throw new Error(`${patch.id}: ${JSON.stringify(from.slice(0, 60))} is not in the file exactly once`);
    }
    out = out.slice(0, i) + to + out.slice(i + from.length);
  }
  return out;
}

/** The original source of a patched file (each replacement put back), for the tests that compare the two. */
export function revertPatch(patch, source) {
  let out = source;
  for (const [from, to] of [...patch.edits].reverse()) {
    const i = out.indexOf(to);
    if (i < 0) throw new Error(`${patch.id}: the patched text is not in the file`);
    out = out.slice(0, i) + from + out.slice(i + to.length);
  }
  return out;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  let failed = false;
  for (const patch of PATCHES) {
    for (const file of patch.files) {
      if (!existsSync(file)) continue; // e.g. a production install without dev dependencies
      try {
        const patched = applyPatch(patch, readFileSync(file, "utf8"));
        if (patched === null) continue;
        writeFileSync(file, patched);
        console.log(`patch-dependencies: ${patch.id} → ${file.split("node_modules/")[1]}`);
      } catch (err) {
        const message = `patch-dependencies: ${err.message} (${file.split("node_modules/")[1]}); see the decision it names`;
        if (patch.optional) console.warn(`${message}; left as it is`);
        else {
          console.error(message);
          failed = true;
        }
      }
    }
  }
  if (failed) process.exit(1);
}
