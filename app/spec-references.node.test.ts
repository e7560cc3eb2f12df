import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";

// Code and docs cite the product spec as "SPEC §N"; the spec lives in the repository (docs/SPEC.md) so that every
// such reference resolves on a clean clone. A reference to a section the spec does not have is a stale comment.
const ROOTS = ["app", "workers", "tests", "scripts", "bench", "docs", "README.md"];
const SKIP = new Set(["node_modules", "build", "artifacts", "out"]);

function files(path: string): string[] {
  if (statSync(path).isFile()) return [path];
  return readdirSync(path).flatMap((name) => (SKIP.has(name) ? [] : files(join(path, name))));
}

export function specSections(spec: string) {
  return new Set([...spec.matchAll(/^## (\d+)\. /gm)].map((m) => m[1]));
}

export function specReferences(text: string) {
  return [...text.matchAll(/SPEC §(\d+)((?:\/§\d+)*)/g)].flatMap((m) => [
    m[1],
    ...[...m[2].matchAll(/§(\d+)/g)].map((n) => n[1]),
  ]);
}

describe("SPEC § references", () => {
  const spec = readFileSync("docs/SPEC.md", "utf8");
  const sections = specSections(spec);

  it("reads the spec's numbered sections and the references in a line", () => {
    expect([...sections]).toEqual(["1", "2", "3", "4", "5", "6", "7", "8", "9"]);
    expect(specReferences("see SPEC §3/§7: and SPEC §10")).toEqual(["3", "7", "10"]);
  });

  it("every SPEC § reference in the repository names a section of docs/SPEC.md", () => {
    const dangling: string[] = [];
    let count = 0;
    for (const file of ROOTS.flatMap(files).filter(
      (f) => /\.(ts|tsx|js|mjs|md|sql)$/.test(f) && f !== "docs/SPEC.md" && !f.endsWith("spec-references.node.test.ts"),
    )) {
      for (const section of specReferences(readFileSync(file, "utf8"))) {
        count++;
        if (!sections.has(section)) dangling.push(`${file}: SPEC §${section}`);
      }
    }
    expect(count).toBeGreaterThan(50);
    expect(dangling).toEqual([]);
  });
});
