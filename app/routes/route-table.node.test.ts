import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

/**
 * The route table, pinned (decision 032): every URL the app answers, with the layouts it renders inside, read from
 * Remix's own manifest (`remix routes --json`, the same config `remix build` uses). Files under app/routes may move
 * between folders; a move that changes a URL, drops one, or re-parents it under another layout fails here.
 * After a deliberate URL change, regenerate the snapshot with `UPDATE_ROUTE_TABLE=1` and review the diff.
 */
type ManifestRoute = { id: string; path?: string; index?: boolean; file: string; children?: ManifestRoute[] };

const root = fileURLToPath(new URL("../..", import.meta.url));
const snapshotFile = fileURLToPath(new URL("./route-table.snapshot.txt", import.meta.url));

const join = (a: string, b: string | undefined) =>
  ("/" + [a, b ?? ""].join("/")).replace(/\/+/g, "/").replace(/(.)\/$/, "$1");

/** One line per route: its full URL, "(index)" for index routes, and the chain of layouts (by URL) above it. */
export function routeTable(tree: ManifestRoute[]): string[] {
  const lines: string[] = [];
  const walk = (routes: ManifestRoute[], base: string, chain: string[]) => {
    for (const r of routes) {
      const full = join(base, r.path);
      const pathless = !r.index && (r.path === undefined || r.path === "");
      const self = pathless ? `layout(${full})` : full;
      lines.push(
        `${full}${r.index ? " (index)" : ""}${pathless ? " (layout)" : ""}  in ${chain.join(" > ") || "root"}`,
      );
      if (r.children) walk(r.children, full, [...chain, self]);
    }
  };
  for (const r of tree) walk(r.children ?? [], "/", []); // the root route itself is app/root.tsx
  return lines.sort();
}

const manifest = () =>
  JSON.parse(execFileSync("npx", ["remix", "routes", "--json"], { cwd: root, encoding: "utf8" })) as ManifestRoute[];

describe("route table", () => {
  const table = routeTable(manifest());

  it("answers exactly the pinned URLs, each under the same layouts", async () => {
    if (process.env.UPDATE_ROUTE_TABLE) (await import("node:fs")).writeFileSync(snapshotFile, table.join("\n") + "\n");
    const pinned = readFileSync(snapshotFile, "utf8").trim().split("\n");
    expect(table).toEqual(pinned);
  });

  it("spots a moved URL and a re-parented route", () => {
    const tree: ManifestRoute[] = [
      {
        id: "root",
        path: "",
        file: "root.tsx",
        children: [
          { id: "a", file: "a", children: [{ id: "b", path: "contacts", file: "b" }] },
          { id: "c", path: "login", file: "c" },
        ],
      },
    ];
    expect(routeTable(tree)).toEqual(["/ (layout)  in root", "/contacts  in layout(/)", "/login  in root"]);
    const moved = structuredClone(tree);
    moved[0].children![1].path = "sign-in";
    expect(routeTable(moved)).not.toEqual(routeTable(tree));
    const reparented = structuredClone(tree);
    reparented[0].children![0].children = [];
    reparented[0].children!.push({ id: "b", path: "contacts", file: "b" });
    expect(routeTable(reparented)).toContain("/contacts  in root");
  });
});
