import { describe, expect, it } from "vitest";
import {
  accessFolder,
  ACCESS_GUARDS,
  checkRouteGuards,
  PUBLIC_HANDLERS,
  stripComments,
} from "../../tests/route-guards";

// Every route module's source, read at build time (Vite), keyed by file name.
const modules = import.meta.glob(["./**/*.ts", "./**/*.tsx", "!./**/*.test.ts", "!./**/*.test.tsx"], {
  query: "?raw",
  import: "default",
  eager: true,
}) as Record<string, string>;
const sources = Object.fromEntries(Object.entries(modules).map(([path, src]) => [path.replace(/^\.\//, ""), src]));

// formAction (app/http/form-action.server.ts) guards before it reads the form; handleTwilioWebhook checks the signature;
// v1Route (app/http/api-v1) guards before it parses.
const GUARD_CALL =
  /\b(requireUser|requireApiUser|formAction|contactSubrouteLoader|contactSubrouteAction|handleTwilioWebhook|v1Route)\s*\(/g;

/** Each guard call of each route module, as [file, nth call]: the check must fail when any single one is removed. */
const guardCalls = Object.entries(sources).flatMap(([file, src]) =>
  [...stripComments(src).matchAll(GUARD_CALL)].map((_, nth) => [file, nth] as const),
);

describe("route guards", () => {
  it("reads every route module", () => {
    expect(Object.keys(sources).length).toBeGreaterThan(30);
    for (const f of [
      "_app+/_layout.tsx",
      "_app+/_contacts+/contacts.tsx",
      "api+/_contacts+/contacts.ts",
      "api+/_contacts+/contacts.$id.ts",
      "api+/_messages+/messages.$send.ts",
      "_public+/login.tsx",
    ])
      expect(sources).toHaveProperty([f]);
  });

  it("every loader and action calls the guard itself or is on the short public list", () => {
    expect(checkRouteGuards(sources)).toEqual([]);
  });

  it.each(guardCalls)("fails when one guard call is removed: %s (call %i)", (file, nth) => {
    let seen = -1;
    const doctored = stripComments(sources[file]).replace(GUARD_CALL, (call) =>
      ++seen === nth ? "getOptionalUser(" : call,
    );
    const findings = checkRouteGuards({ ...sources, [file]: doctored });
    expect(findings).toHaveLength(1);
    expect(findings[0].file).toBe(file);
  });

  it("fails for a new unguarded route, a guard only in a comment, and a handler hidden behind an alias", () => {
    const check = (sources: Record<string, string>) => checkRouteGuards(sources, {}); // alone, without the real public list
    const route = (body: string) => `import type { LoaderFunctionArgs } from "@remix-run/cloudflare";\n${body}\n`;
    expect(
      check({
        "_app+/new-screen.tsx": route("export async function loader(args: LoaderFunctionArgs) {\n  return null;\n}"),
      }),
    ).toHaveLength(1);
    expect(
      check({
        "_app+/new-screen.tsx": route(
          "export async function loader(args: LoaderFunctionArgs) {\n  // await requireUser(args);\n  return null;\n}",
        ),
      }),
    ).toHaveLength(1);
    expect(
      check({ "api+/thing.ts": route('import { handler } from "~/x";\nexport const action = handler;') })[0].problem,
    ).toMatch(/declare action as a function/);
    expect(check({ "api+/thing.ts": route('export { handler as loader } from "~/x";') })).toHaveLength(1);
    // …and passes once the guard is there, as an arrow function too.
    expect(
      check({
        "api+/thing.ts": route(
          "export const loader = async (args: LoaderFunctionArgs) => {\n  await requireApiUser(args);\n  return null;\n};",
        ),
      }),
    ).toEqual([]);
  });

  it("derives each route's guard from its access folder", () => {
    // The real table: every module sits in an access folder, each folder is used, and the folder decides the guard.
    const folders = new Set(Object.keys(sources).map(accessFolder));
    expect([...folders].sort()).toEqual(Object.keys(ACCESS_GUARDS).sort());
    expect(ACCESS_GUARDS["_app+"]?.name).toBe("requireUser/formAction");
    expect(ACCESS_GUARDS["_session+"]?.name).toBe("requireUser/formAction");
    expect(ACCESS_GUARDS["api+"]?.name).toBe("requireApiUser");
    expect(ACCESS_GUARDS["webhooks+"]?.name).toMatch(/signature/);
    expect(ACCESS_GUARDS["_public+"]).toBeNull();

    const check = (sources: Record<string, string>) => checkRouteGuards(sources, {});
    const loader = (guard: string) =>
      `import type { LoaderFunctionArgs } from "@remix-run/cloudflare";\nexport async function loader(args: LoaderFunctionArgs) {\n  ${guard}\n  return null;\n}\n`;
    const session = loader("await requireUser(args);");
    const api = loader("await requireApiUser(args);");
    const unguarded = loader("");
    // A screen in _app+ with the /api guard, an /api route with the session guard, an unguarded screen: all fail.
    expect(check({ "_app+/_contacts+/contacts.export.tsx": api })[0].problem).toMatch(
      /_app\+ does not call requireUser/,
    );
    expect(check({ "api+/_contacts+/contacts.export.ts": session })[0].problem).toMatch(/does not call requireApiUser/);
    expect(check({ "_app+/_contacts+/contacts.export.tsx": unguarded })).toHaveLength(1);
    expect(check({ "_session+/contacts.export.ts": unguarded })).toHaveLength(1);
    // A webhook must check the signature; a public route must say why; a route outside any access folder fails.
    expect(
      check({ "webhooks+/lead.ts": unguarded.replace("loader", "action").replace("Loader", "Action") })[0].problem,
    ).toMatch(/handleTwilioWebhook/);
    expect(check({ "_public+/welcome.tsx": unguarded })[0].problem).toMatch(/not on the public list/);
    expect(check({ "contacts.export.ts": session })[0].problem).toMatch(/not in an access folder/);
    // Listing a session or /api route as public does not excuse it.
    expect(
      checkRouteGuards({ "api+/thing.ts": unguarded }, { "api+/thing.ts": { exports: ["loader"], why: "test" } })[0]
        .problem,
    ).toMatch(/cannot be public/);
    // …and each passes in the folder whose guard it calls.
    expect(
      check({
        "_app+/_contacts+/contacts.export.tsx": session,
        "_session+/contacts.export.ts": session,
        "api+/_contacts+/contacts.export.ts": api,
      }),
    ).toEqual([]);
  });

  it("the public list names only existing handlers", () => {
    for (const file of Object.keys(PUBLIC_HANDLERS)) expect(sources, file).toHaveProperty([file]);
  });
});
