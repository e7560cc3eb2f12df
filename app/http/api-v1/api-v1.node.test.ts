import { createHash } from "node:crypto";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { openApiDocument } from "./openapi";
import { API_SCOPES, type Operation } from "./operation";
import { OPERATIONS } from "./operations";
import { WEBHOOK_EVENTS } from "~/db/schema";

/**
 * Issue 26 item 5 / decision 038: the published contract is generated from the registry, and every operation in it
 * is served by the route module it names, parsing with its own declaration.
 */
const doc = openApiDocument();
type Op = {
  operationId: string;
  security: Record<string, string[]>[];
  responses: Record<string, unknown>;
  parameters: { name: string; in: string }[];
};
const ops = Object.entries(doc.paths).flatMap(([path, methods]) =>
  Object.entries(methods as Record<string, Op>).map(([method, op]) => ({ path, method, op })),
);

/** Every `$ref` in a JSON value. */
const refs = (v: unknown): string[] =>
  Array.isArray(v)
    ? v.flatMap(refs)
    : v && typeof v === "object"
      ? Object.entries(v).flatMap(([k, x]) => (k === "$ref" && typeof x === "string" ? [x] : refs(x)))
      : [];

/**
 * app/routes/api+/_contacts+/v1.contacts.$id.ts → /api/v1/contacts/{id} (decision 032: the access folder `api+` is the
 * /api segment, `_area+` folders add none, the file name spells the rest).
 */
const urlOf = (file: string) => {
  const parts = file.replace(/\.tsx?$/, "").split("/");
  const name = parts.pop()!;
  const prefix = parts.filter((p) => !p.startsWith("_")).map((p) => p.replace(/\+$/, ""));
  return "/" + [...prefix, ...name.split(".")].map((s) => (s.startsWith("$") ? `{${s.slice(1)}}` : s)).join("/");
};

/** Every route module under app/routes (decision 032's folders), tests left out. */
const routeFiles = () =>
  (readdirSync("app/routes", { recursive: true }) as string[]).filter(
    (f) => /\.tsx?$/.test(f) && !f.includes(".test."),
  );
const base = (f: string) => f.split("/").pop()!;

describe("the OpenAPI document of /api/v1", () => {
  it("is OpenAPI 3.1 with the bearer scheme, and lists every registered operation", () => {
    expect(doc.openapi).toBe("3.1.0");
    expect(doc.components.securitySchemes.apiKey).toMatchObject({ type: "http", scheme: "bearer" });
    expect(ops.map((o) => o.op.operationId).sort()).toEqual(OPERATIONS.map((o) => o.operationId).sort());
    expect(new Set(ops.map((o) => o.op.operationId)).size).toBe(ops.length);
  });

  it("gives every operation an operationId, a success and error responses, a scoped security and its path params", () => {
    for (const { path, method, op } of ops) {
      const where = `${method} ${path}`;
      expect(op.operationId, where).toMatch(/^[a-z][A-Za-z]+$/);
      expect(
        Object.keys(op.responses).some((s) => /^2\d\d$/.test(s)),
        where,
      ).toBe(true);
      expect(Object.keys(op.responses), where).toEqual(expect.arrayContaining(["401", "403"]));
      expect(op.security.length, where).toBeGreaterThan(0);
      const scopes = op.security.flatMap((s) => s.apiKey ?? []);
      expect(scopes.length, where).toBe(1);
      expect(API_SCOPES, where).toContain(scopes[0]);
      const declared = [...path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]);
      expect(
        op.parameters.filter((p) => p.in === "path").map((p) => p.name),
        where,
      ).toEqual(declared);
    }
  });

  it("resolves every $ref to a component schema, and every schema is JSON Schema (no zod leftovers)", () => {
    const all = refs(doc);
    expect(all.length).toBeGreaterThan(0);
    for (const ref of all) {
      const name = ref.replace("#/components/schemas/", "");
      expect(ref, ref).toBe(`#/components/schemas/${name}`);
      expect(doc.components.schemas[name], ref).toBeDefined();
    }
    for (const [name, schema] of Object.entries(doc.components.schemas)) {
      expect(schema, name).not.toHaveProperty("$schema");
      expect(JSON.stringify(schema), name).not.toMatch(/"_def"|"typeName"/);
      expect(schema.type ?? schema.anyOf ?? schema.allOf, name).toBeDefined();
    }
  });

  it("documents each outbound webhook event (OpenAPI 3.1 `webhooks`): the signed headers and the event's body", () => {
    expect(Object.keys(doc.webhooks).sort()).toEqual([...WEBHOOK_EVENTS].sort());
    for (const [type, item] of Object.entries(doc.webhooks)) {
      const post = (
        item as unknown as { post: Op & { requestBody: { content: Record<string, { schema: { $ref: string } }> } } }
      ).post;
      expect(post.parameters.map((p) => `${p.in}:${p.name}`)).toEqual([
        "header:Helio-Signature",
        "header:Helio-Event-Id",
      ]);
      const body = doc.components.schemas[
        post.requestBody.content["application/json"].schema.$ref.split("/").pop()!
      ] as {
        properties: { type: { const?: string; enum?: string[] }; data: { required?: string[] } };
      };
      expect(body.properties.type.const ?? body.properties.type.enum?.[0], type).toBe(type);
      expect(body.properties.data.required?.length, type).toBeGreaterThan(2);
    }
  });

  it("documents the fields the declarations' schemas require (the contact's required fields)", () => {
    const body = doc.components.schemas.CreateContactRequest as { required?: string[]; properties: object };
    expect(body.required).toEqual(expect.arrayContaining(["firstName", "lastName", "phone"]));
    expect(Object.keys(body.properties)).toContain("customFields");
  });
  it("documents POST /api/v1/leads: the leads scope, one lead / an array / { leads }, the query", () => {
    const leads = (doc.paths["/api/v1/leads"] as Record<string, Op> | undefined)?.post;
    expect(leads?.operationId).toBe("ingestLeads");
    expect(leads?.security).toContainEqual({ apiKey: ["leads"] });
    expect(leads?.parameters.map((p) => p.name).sort()).toEqual(["onDuplicate", "source"]);
    const body = doc.components.schemas.IngestLeadsRequest as { anyOf: { type: string; required?: string[] }[] };
    expect(body.anyOf.map((s) => s.type)).toEqual(["object", "array", "object"]);
    expect(body.anyOf[0].required).toEqual(["phone"]);
    expect(body.anyOf[2].required).toEqual(["leads"]);
  });
});

describe("every /api/v1 route module serves its declarations", () => {
  const routes = routeFiles().filter((f) => f.startsWith("api+/") && base(f).startsWith("v1."));
  const byRoute = new Map<string, Operation[]>();
  for (const op of OPERATIONS) byRoute.set(op.route, [...(byRoute.get(op.route) ?? []), op]);

  it("each declaration's route module exists at the declared path and parses with the declaration", () => {
    for (const op of OPERATIONS) {
      expect(existsSync(`app/routes/${op.route}`), op.route).toBe(true);
      expect(urlOf(op.route), op.operationId).toBe(op.path);
      const source = readFileSync(`app/routes/${op.route}`, "utf8");
      expect(source, op.route).toMatch(new RegExp(`served\\(${op.operationId}Op\\b`));
      expect(source, op.route).toMatch(/v1Route\(/);
    }
  });

  it("every /api/v1 module is the contract itself or serves only registered operations", () => {
    for (const file of routes) {
      expect(byRoute.has(file), `${file} serves no declared operation`).toBe(true);
      const served = [...readFileSync(`app/routes/${file}`, "utf8").matchAll(/served\((\w+)Op\b/g)].map((m) => m[1]);
      expect(served.sort(), file).toEqual(
        byRoute
          .get(file)!
          .map((o) => o.operationId)
          .sort(),
      );
    }
  });
});

describe("SPEC §7 (the browser client's /api calls) stays as it is", () => {
  const spec = readFileSync("docs/SPEC.md", "utf8");
  const section = spec.slice(spec.indexOf("## 7. "), spec.indexOf("\n## 8. "));

  it("is the same text (a change to the browser's routes is deliberate: update this hash with it)", () => {
    expect(section).toContain("| GET /api/contacts | List of contacts. |");
    expect(section).not.toContain("/api/v1");
    expect(createHash("sha256").update(section).digest("hex")).toBe(
      "5cc00341d248cbfc6f7f82ba9ec9b3fac002398200d3dd9c54c297b69e3ad582",
    );
  });

  it("no /api route module of the browser client goes through the v1 layer", () => {
    const legacy = routeFiles().filter(
      (f) => (f.startsWith("api+/") && !base(f).startsWith("v1.")) || f === "_public+/api.auth.login.ts",
    );
    expect(legacy.length).toBeGreaterThan(20);
    for (const f of legacy) expect(readFileSync(`app/routes/${f}`, "utf8"), f).not.toMatch(/~\/http\/api-v1/);
  });
});
