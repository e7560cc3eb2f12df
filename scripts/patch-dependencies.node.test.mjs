// The dependency patches (scripts/patch-dependencies.mjs, decision 062) are installed, and each patched file behaves
// as the original it replaces: the original is rebuilt from the installed file by putting every edit back, both are
// loaded side by side, and their answers compared — route matches over the app's real route table (`remix routes
// --json`), and server-rendered pages byte for byte.
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import Module, { createRequire } from "node:module";
import { dirname } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { applyPatch, PATCHES, revertPatch } from "./patch-dependencies.mjs";

const root = fileURLToPath(new URL("..", import.meta.url));
const patchOf = (id) => PATCHES.find((p) => p.id === id);

/** A CommonJS module from source text, as if it were `file` (its own requires resolve from there). */
function load(source, file) {
  const m = new Module(file);
  m.filename = file;
  m.paths = Module._nodeModulePaths(dirname(file));
  m._compile(source, file);
  return m.exports;
}

/** The installed (patched) module and the original rebuilt from it. */
function bothVersions(id, file) {
  const patched = readFileSync(file, "utf8");
  return { patched: load(patched, file), original: load(revertPatch(patchOf(id), patched), file) };
}

describe("installed patches", () => {
  for (const patch of PATCHES.filter((p) => !p.optional)) {
    it(`${patch.id} is applied to each of its files`, () => {
      for (const file of patch.files) expect(applyPatch(patch, readFileSync(file, "utf8"))).toBeNull();
    });
  }

  it("refuses a file whose original text is missing or repeated (an upgrade must not drop a patch silently)", () => {
    const patch = patchOf("route-matching");
    expect(() => applyPatch(patch, "function nothing() {}")).toThrow(/not in the file exactly once/);
    const [from] = patch.edits[1];
    expect(() => applyPatch(patch, from + from)).toThrow(/not in the file exactly once/);
  });
});

describe("route-matching: the same matches as the original router", () => {
  const file = patchOf("route-matching").files[1]; // router.cjs.js, the one the Worker bundles
  const { patched, original } = bothVersions("route-matching", file);
  /** @type {{ id: string, path?: string, index?: boolean, caseSensitive?: boolean, children?: any[] }[]} */
  const tree = JSON.parse(execFileSync("npx", ["remix", "routes", "--json"], { cwd: root, encoding: "utf8" }));
  const strip = (routes) =>
    routes.map((r) => ({ id: r.id, path: r.path, index: r.index, children: r.children && strip(r.children) }));
  const urls = [];
  const walk = (routes, base) => {
    for (const r of routes) {
      const full = `${base}/${r.path ?? ""}`.replace(/\/+/g, "/");
      urls.push(full.replace(/:[\w-]+/g, "42").replace(/\*$/, "some/deep/path"));
      if (r.children) walk(r.children, full);
    }
  };
  walk(tree, "");
  const pathnames = [
    ...urls,
    ...urls.map((u) => `${u}/`.replace(/\/+$/, "/")),
    ...urls.map((u) => u.toUpperCase()),
    "/",
    "/contacts/%F0%9F%8C%9E",
    "/contacts/a%2Fb",
    "/no/such/page",
    "//contacts",
    "/api/v1/contacts/7",
  ];
  const shape = (matches) =>
    matches?.map((m) => ({ id: m.route.id, params: m.params, pathname: m.pathname, base: m.pathnameBase })) ?? null;

  it("answers every URL of the app (and trailing slashes, upper case, encoded and unknown paths) as upstream does", () => {
    expect(urls.length).toBeGreaterThan(100);
    const a = strip(tree);
    const b = strip(tree);
    for (const round of [1, 2]) {
      // The second round answers from the patched router's caches: the same array's, and (a new array of the same
      // routes, as Remix builds for each render) the shared pathname → branch index.
      for (const p of pathnames) {
        expect(shape(patched.matchRoutes(a, p)), `${p} (round ${round})`).toEqual(shape(original.matchRoutes(b, p)));
        expect(shape(patched.matchRoutes(strip(tree), p)), `${p} (new array)`).toEqual(
          shape(original.matchRoutes(b, p)),
        );
      }
    }
    // Another table whose only difference is one path: its own answers, not the first table's.
    const moved = strip(tree);
    const contactsRoute = JSON.stringify(moved).includes('"path":"contacts"');
    const rename = (routes) =>
      routes.forEach((r) => (r.path === "contacts" && (r.path = "people"), r.children && rename(r.children)));
    rename(moved);
    expect(contactsRoute).toBe(true);
    expect(patched.matchRoutes(moved, "/contacts")?.at(-1).route.path).not.toBe("contacts");
    expect(shape(patched.matchRoutes(moved, "/people"))).toEqual(shape(original.matchRoutes(moved, "/people")));
  });

  it("a pathname matched once still gets fresh match objects, and a new routes array is ranked again", () => {
    const routes = strip(tree);
    const first = patched.matchRoutes(routes, "/contacts/42");
    const second = patched.matchRoutes(routes, "/contacts/42");
    expect(second).not.toBe(first);
    expect(second[0]).not.toBe(first[0]);
    first[first.length - 1].params.id = "changed";
    expect(second[second.length - 1].params.id).toBe("42");
    // The same table in another array: the matches are that array's own route objects.
    const other = strip(tree);
    const objects = new Set();
    const collect = (routes) => routes.forEach((r) => (objects.add(r), r.children && collect(r.children)));
    collect(other);
    expect(patched.matchRoutes(other, "/contacts/42").every((m) => objects.has(m.route))).toBe(true);
  });

  it("routes added in place by patchRoutes (lazy route discovery in the browser) are matched at once", () => {
    const router = patched.createRouter({
      routes: [{ id: "root", path: "/", children: [{ id: "a", path: "a" }] }],
      history: patched.createMemoryHistory(),
    });
    expect(patched.matchRoutes(router.routes, "/b")).toBeNull();
    router.patchRoutes("root", [{ id: "b", path: "b" }]);
    expect(patched.matchRoutes(router.routes, "/b")?.at(-1).route.id).toBe("b");
    router.dispose();
  });
});

describe("fizz-string-chunks: the same bytes as the original renderer", () => {
  const require = createRequire(import.meta.url);
  const React = require("react");
  const file = patchOf("fizz-string-chunks").files[0];
  const { patched, original } = bothVersions("fizz-string-chunks", file);
  const h = React.createElement;

  /** A page past several 512-byte views: attributes, escaped and multi-byte text, a boundary that resolves later. */
  function Page({ rows, later }) {
    return h(
      "main",
      { className: "mx-auto max-w-7xl", "data-testid": "page", "aria-label": "Contacts & leads" },
      h("h1", null, "Solar leads — “quoted” <b>not bold</b> ☀️ 𝒮"),
      h(
        "table",
        null,
        h(
          "tbody",
          null,
          Array.from({ length: rows }, (_, i) =>
            h(
              "tr",
              { key: i, id: `row-${i}`, className: i % 2 ? "bg-surface" : undefined, hidden: i === 3 },
              h("td", { title: `Lead ${i} "quote" & <tag>` }, `Lead ${i} · Müller ${"x".repeat(i % 40)}`),
              h("td", null, h("a", { href: `/contacts/${i}?a=1&b=2` }, "Open")),
              h("td", null, h("input", { name: "n", defaultValue: `v${i}`, disabled: i % 5 === 0 })),
            ),
          ),
        ),
      ),
      h(React.Suspense, { fallback: h("p", null, "loading…") }, h(later)),
    );
  }

  async function render(server, rows) {
    let resolved = false;
    const promise = new Promise((r) => setTimeout(() => ((resolved = true), r()), 5));
    function Later() {
      if (!resolved) throw promise;
      return h("section", { "data-late": "yes" }, "Arrived after the shell ✓");
    }
    const stream = await server.renderToReadableStream(h(Page, { rows, later: Later }), { nonce: "n0nce" });
    await stream.allReady;
    return new Uint8Array(await new Response(stream).arrayBuffer());
  }

  for (const rows of [0, 3, 40, 400]) {
    it(`renders a page of ${rows} rows byte for byte as upstream does`, async () => {
      const [a, b] = [await render(patched, rows), await render(original, rows)];
      expect(a.length).toBeGreaterThan(100);
      expect(Buffer.from(a).toString("utf8")).toBe(Buffer.from(b).toString("utf8"));
      expect(Buffer.compare(a, b)).toBe(0);
    });
  }
});
