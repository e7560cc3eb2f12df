import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

/**
 * Issue 25 item 5: every action that takes a form reads it through formAction (app/http/form-action.server.ts) —
 * the bounded body, conform + zod, the one FormFailure reply. A route module (or the action module a route
 * delegates to) that reads the body itself fails here, unless it is on this list with its reason.
 */
const ALLOWED: Record<string, string> = {
  // The helper itself, and the capped reader it calls.
  "app/http/form-action.server.ts": "reads the form for every screen action",
  "app/http/read-body.server.ts": "the capped body reader formAction uses",
  // Sign-in comes before there is a session to guard, and remix-auth's FormStrategy reads the posted form itself
  // (from a clone); the route checks the same fields with conform + zod first.
  "app/http/login-action.server.ts": "public sign-in: remix-auth reads the body too",
};

// request.formData(), request.clone().formData(), Object.fromEntries(await …formData()), a conform parse done by
// hand, the old formIntent shortcut, or the capped reader called directly.
const HAND_PARSE = [/\.formData\(\)/, /\bparseWithZod\(/, /\bformIntent\(/, /\breadFormDataLimited\(/];

const root = fileURLToPath(new URL("../..", import.meta.url));
function* files(dir: string): Generator<string> {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) yield* files(path);
    else if (/\.(ts|tsx)$/.test(name) && !/\.test\.tsx?$/.test(name)) yield relative(root, path).split("\\").join("/");
  }
}

/** Server code that handles a request: every route module, and every `.server` module (the delegated actions). */
const serverFiles = () =>
  [...files(join(root, "app"))].filter((f) => f.startsWith("app/routes/") || /\.server\.tsx?$/.test(f));

/** The hand-parsing lines of a source text (comments stripped, so a comment naming the API is not a hit). */
export function handParses(source: string): string[] {
  const code = source.replace(/\/\*[\s\S]*?\*\//g, "").replace(/(^|[^:"'`])\/\/.*$/gm, "$1");
  // conform validating in the browser (useForm's onValidate) is not the server reading a request.
  return code.split("\n").filter((line) => !/\bonValidate\b/.test(line) && HAND_PARSE.some((re) => re.test(line)));
}

describe("one way to read a form", () => {
  it("finds hand parsing (the check can fail)", () => {
    expect(handParses("const form = await args.request.formData();")).toHaveLength(1);
    expect(handParses("const input = await formIntent(request, intent);")).toHaveLength(1);
    expect(handParses("// request.formData() is read by formAction")).toHaveLength(0);
    expect(handParses("return formAction(args, { schema }, run);")).toHaveLength(0);
  });

  it("no route action reads the posted form by hand (outside the commented allow-list)", () => {
    const offenders = serverFiles()
      .filter((f) => !(f in ALLOWED))
      .flatMap((f) => handParses(readFileSync(join(root, f), "utf8")).map((line) => `${f}: ${line.trim()}`));
    expect(offenders).toEqual([]);
  });

  it("every allow-list entry still exists and still needs its exception", () => {
    for (const f of Object.keys(ALLOWED))
      expect(handParses(readFileSync(join(root, f), "utf8")).length, f).toBeGreaterThan(0);
  });
});
