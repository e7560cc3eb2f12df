// The browser bundle must not carry server-side parsers (issue 9 #11: the upload dialog imported a constant from
// csv-import.ts and shipped papaparse, ~7.5 KB gzipped). Reads the client build `remix build` wrote to public/build
// (npm test builds first; `npm run test:e2e` builds when no build exists).
import assert from "node:assert/strict";
import { readFileSync, readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { fileURLToPath } from "node:url";

const build = fileURLToPath(new URL("../../public/build", import.meta.url));
const files = (dir) =>
  readdirSync(dir).flatMap((f) => (statSync(join(dir, f)).isDirectory() ? files(join(dir, f)) : [join(dir, f)]));
// String literals papaparse and SheetJS keep through minification.
const PARSER_MARKERS = ["__parsed_extra", "UndetectableDelimiter", "sheet_to_csv", "SheetJS"];

test("no client chunk contains papaparse or SheetJS (the upload and quick-send routes included)", () => {
  const chunks = files(build).filter((f) => f.endsWith(".js"));
  assert.ok(
    chunks.some((f) => /routes[\\/]_app\+[\\/]_contacts\+[\\/]contacts\.upload-/.test(f)),
    "the upload route's chunk exists",
  );
  assert.ok(
    chunks.some((f) => /routes[\\/]_app\+[\\/]_contacts\+[\\/]contacts\.quick-send-/.test(f)),
    "the quick-send route's chunk exists",
  );
  const offenders = chunks.filter((f) => PARSER_MARKERS.some((m) => readFileSync(f, "utf8").includes(m)));
  assert.deepEqual(offenders, []);
});
