import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";
import { describe, expect, it } from "vitest";

// Decision 031: reads and writes go through drizzle's builder (row types from app/db/schema), with `sql` fragments
// inside it where D1 needs them. This ratchet counts what is still written by hand, per top-level folder of app/, and
// only lets the numbers fall: a rise fails (write it with the builder), a fall fails too until BUDGET is lowered to
// the new figure (so the slack is never spent again).
//
// What counts as a raw statement (syntax only, test files excluded):
//   - `<db>.all|get|run|values(<arg>)`: a statement handed to drizzle as SQL text (`db`, `tx`, `deps.db`, …);
//     a statement built by a typed helper (TYPED_HELPERS) does not count;
//   - `<d1>.prepare(<text>)` on the D1 binding (`db.$client`, `d1`);
//   - a whole statement written as a `sql` template (its text starts with SELECT, INSERT, UPDATE, DELETE, WITH or
//     REPLACE) that is not already the argument of one of the above: runBatch items, statements built in a helper.
//     A parenthesised `(SELECT …)` inside the builder is a fragment and does not count.
// A hand-typed row is a type argument on any of those (`db.all<{ id: number }>(…)`, `sql<T>\`SELECT …\``) or on a
// D1 result (`.first<T>()`, `.all<T>()`, `.raw<T>()` after `.prepare`).
//
// A statement that must stay raw carries `// raw-sql: <key>` on the line(s) just above it, and <key> is listed in
// ALLOWED for that file with the reason; it is then left out of both counts.

/**
 * Helpers whose SQL is checked against the schema's columns (app/db/bulk-update.server.ts), and the send consumer's
 * exported wrappers around bulkUpdateStatements (query-plans.test.ts pins their plans, so they are named functions).
 */
const TYPED_HELPERS = new Set([
  "bulkUpdateSql",
  "bulkUpdateStatements",
  "bulkInsertSql",
  "bulkInsertStatements",
  "claimStatements",
  "recordOutcomeStatements",
  "stickySenderStatements",
]);

/** Statements the builder cannot express. Key = the `raw-sql:` marker above the statement; one line of why. */
const ALLOWED: Record<string, Record<string, string>> = {
  // The helpers themselves: they build their SQL from the schema's columns, which is what this rule asks for.
  "db/bulk-update.server.ts": {
    "typed-helper": "the json_each UPDATE/INSERT the typed helpers build from the table's columns",
  },
  "db/client.server.ts": { "run-batch": "runBatch re-prepares builder statements on the D1 binding to batch them" },
  // INSERT … SELECT <values> WHERE <guard> [RETURNING]: one atomic check-and-write; drizzle's insert().select() needs a FROM.
  "auth/login-throttle.server.ts": {
    "guarded-insert": "the login attempt is counted only if the throttle allows it, in one statement",
  },
  "campaigns/start-campaign.server.ts": {
    "guarded-insert": "logged only when the UPDATE before it changed a row (changes() > 0)",
  },
  "campaigns/pause-campaign.server.ts": {
    "guarded-insert": "logged only when the UPDATE before it changed a row (changes() > 0)",
  },
  "contacts/import-next-chunk.server.ts": {
    "guarded-insert": "logged only while the import is still importing (a redelivered finish logs nothing)",
  },
  "caps/record-held.server.ts": {
    "guarded-insert": "the activity entry is written only for the first held event of the day (its tally is 1)",
  },
  "messaging/compliance.server.ts": {
    "guarded-insert": "the suppression is written only when the batch's condition holds (a newer STOP won)",
  },
  "messaging/providers/outbox.server.ts": {
    "guarded-insert": "the outbox row is written only if this message is not already there (a provider retry)",
  },
  // INSERT … SELECT from another table: drizzle's insert().select() must name every column of the target, in order.
  "messaging/insert-broadcast-messages.server.ts": {
    "insert-select":
      "one message per picked (or segment) contact, read from contacts inside the batch that writes the broadcast",
  },
  // The reply's correlated subqueries name the updated row by an alias (`messages AS i`); drizzle cannot alias the
  // table an update() writes.
  "campaigns/attribute-replies.server.ts": {
    "update-from": "responses counted per campaign from a grouped derived table; replies stamped through the alias i",
  },
  // A prepared D1 statement of the archive's own d1.batch (below).
  "messaging/keep-consent-evidence.server.ts": {
    "update-from": "copies each opt-out/opt-in event's evidence message before the archive deletes it",
  },
  // The campaign dispatcher's reads report D1's own rows_read per tick (bench/campaign.mjs reads the debug line).
  "campaigns/dispatch-due-steps.server.ts": { "d1-meta": "the due scan and its batch of reads, with rows_read" },
  // SQLite's SELECT without FROM: drizzle's select() always has one.
  "jobs/purge-old-rows.server.ts": {
    "select-without-from": "each retention table's oldest created_at in one statement (one index row each)",
  },
  // The archive works on the D1 binding: it copies rows as stored (SELECT *, epoch ms, 0/1) to R2, reports D1's own
  // rows_read, and commits the delete with the consent-evidence copy in one d1.batch.
  "messaging/archive-old-messages.server.ts": {
    archive: "rows as stored to R2, D1's rows_read per read, one d1.batch with keepConsentEvidence",
  },
  // FTS5 virtual tables are not in the drizzle schema (migrations create them by hand).
  "campaigns/count-matching-contacts.server.ts": { "fts-match": "contacts_fts MATCH" },
  "contacts/list-contacts.server.ts": { "fts-match": "contacts_fts MATCH, walked in rowid order" },
  // A UNION over a JSON array column read as a table (json_each): drizzle's union() cannot select from it.
  "responders/alerts/staff-suppressions.server.ts": {
    "staff-addresses": "every staff address: profiles' JSON, responders' escalation lists, users",
  },
};

/** Raw statements and hand-typed rows per folder of app/ (test files excluded). Only ever lower these. */
const BUDGET: Record<string, { raw: number; typedRows: number }> = {
  activity: { raw: 0, typedRows: 0 },
  ai: { raw: 0, typedRows: 0 },
  analytics: { raw: 0, typedRows: 0 },
  auth: { raw: 0, typedRows: 0 },
  campaigns: { raw: 0, typedRows: 0 },
  caps: { raw: 0, typedRows: 0 },
  contacts: { raw: 0, typedRows: 0 },
  conversations: { raw: 0, typedRows: 0 },
  jobs: { raw: 0, typedRows: 0 },
  "message-center": { raw: 0, typedRows: 0 },
  messaging: { raw: 0, typedRows: 0 },
  playground: { raw: 0, typedRows: 0 },
  responders: { raw: 0, typedRows: 0 },
  routes: { raw: 0, typedRows: 0 },
  users: { raw: 0, typedRows: 0 },
};

// ---------------------------------------------------------------------------------------------------------------

const STATEMENT = /^\s*(SELECT|INSERT|UPDATE|DELETE|WITH|REPLACE)\b/i;
const DB_OBJECT = /(^|\.)(db|tx)$/i;
const D1_OBJECT = /(\$client|(^|\.)d1)$/i;
const MARKER = /raw-sql:\s*([a-z0-9-]+)/i;

export type Found = { line: number; kind: "raw" | "typedRows"; text: string; marker: string | null };

const flat = (node: ts.Node, sf: ts.SourceFile) => node.getText(sf).replace(/\s+/g, "");

function templateHead(node: ts.TaggedTemplateExpression): string {
  const t = node.template;
  return ts.isNoSubstitutionTemplateLiteral(t) ? t.text : t.head.text;
}

function markerAbove(node: ts.Node, sf: ts.SourceFile): string | null {
  // The comment may sit above the call itself or above the statement around it (`const rows = await …`).
  for (let n: ts.Node | undefined = node; n && !ts.isSourceFile(n); n = n.parent) {
    for (const r of ts.getLeadingCommentRanges(sf.text, n.getFullStart()) ?? []) {
      const m = MARKER.exec(sf.text.slice(r.pos, r.end));
      if (m) return m[1];
    }
    if (ts.isStatement(n)) break;
  }
  return null;
}

const isTypedHelperCall = (node: ts.Node, sf: ts.SourceFile) =>
  ts.isCallExpression(node) && TYPED_HELPERS.has(node.expression.getText(sf).split(".").pop() ?? "");

/** `bulkInsertStatements(…).map((q) => db.run(q))`: the argument is one of a typed helper's statements. */
function isTypedHelperItem(arg: ts.Node, sf: ts.SourceFile): boolean {
  if (!ts.isIdentifier(arg)) return false;
  let fn: ts.Node = arg;
  while (fn.parent && !ts.isArrowFunction(fn) && !ts.isFunctionExpression(fn)) fn = fn.parent;
  if (!ts.isArrowFunction(fn) && !ts.isFunctionExpression(fn)) return false;
  if (!fn.parameters.some((p) => p.name.getText(sf) === arg.text)) return false;
  const call = fn.parent;
  return (
    ts.isCallExpression(call) &&
    ts.isPropertyAccessExpression(call.expression) &&
    call.expression.name.text === "map" &&
    isTypedHelperCall(call.expression.expression, sf)
  );
}

/** Every raw statement and hand-typed row in one source text. */
export function findRawSql(source: string, fileName = "x.ts"): Found[] {
  const sf = ts.createSourceFile(
    fileName,
    source,
    ts.ScriptTarget.Latest,
    true,
    fileName.endsWith(".tsx") ? ts.ScriptKind.TSX : ts.ScriptKind.TS,
  );
  const found: Found[] = [];
  const counted = new Set<ts.Node>();
  const add = (node: ts.Node, kind: Found["kind"]) =>
    found.push({
      line: sf.getLineAndCharacterOfPosition(node.getStart(sf)).line + 1,
      kind,
      text: node.getText(sf).slice(0, 80).replace(/\s+/g, " "),
      marker: markerAbove(node, sf),
    });

  const visit = (node: ts.Node) => {
    if (ts.isCallExpression(node) && ts.isPropertyAccessExpression(node.expression) && node.arguments.length > 0) {
      const method = node.expression.name.text;
      const object = flat(node.expression.expression, sf);
      const arg = node.arguments[0];
      const typedHelper = isTypedHelperCall(arg, sf) || isTypedHelperItem(arg, sf);
      if (["all", "get", "run", "values"].includes(method) && DB_OBJECT.test(object) && !typedHelper) {
        add(node, "raw");
        if (node.typeArguments?.length) add(node, "typedRows");
        node.arguments.forEach((a) => counted.add(a));
      } else if (method === "prepare" && D1_OBJECT.test(object)) {
        add(node, "raw");
      }
    }
    if (ts.isCallExpression(node) && ts.isPropertyAccessExpression(node.expression) && node.typeArguments?.length) {
      const method = node.expression.name.text;
      if (["first", "all", "raw"].includes(method) && /\.prepare\(/.test(flat(node.expression.expression, sf)))
        add(node, "typedRows");
    }
    if (ts.isTaggedTemplateExpression(node) && node.tag.getText(sf) === "sql" && STATEMENT.test(templateHead(node))) {
      let inside = false;
      for (let p: ts.Node | undefined = node; p; p = p.parent) if (counted.has(p)) inside = true;
      if (!inside) {
        add(node, "raw");
        if (node.typeArguments?.length) add(node, "typedRows");
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(sf);
  return found;
}

const appDir = fileURLToPath(new URL("..", import.meta.url));

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return /\.tsx?$/.test(name) && !/\.test\.tsx?$/.test(name) ? [path] : [];
  });
}

type Tally = { raw: number; typedRows: number; allowed: number; where: { raw: string[]; typedRows: string[] } };

export function tallyApp(): { tally: Record<string, Tally>; problems: string[] } {
  const tally: Record<string, Tally> = {};
  const problems: string[] = [];
  for (const path of sourceFiles(appDir)) {
    const file = relative(appDir, path).split("\\").join("/");
    const folder = file.includes("/") ? file.split("/")[0] : ".";
    for (const f of findRawSql(readFileSync(path, "utf8"), file)) {
      const t = (tally[folder] ??= { raw: 0, typedRows: 0, allowed: 0, where: { raw: [], typedRows: [] } });
      if (f.marker) {
        if (ALLOWED[file]?.[f.marker]) {
          if (f.kind === "raw") t.allowed++;
          continue;
        }
        problems.push(
          `app/${file}:${f.line} is marked raw-sql: ${f.marker}, which ALLOWED does not list for that file`,
        );
      }
      t[f.kind]++;
      t.where[f.kind].push(`app/${file}:${f.line} ${f.text}`);
    }
  }
  return { tally, problems };
}

describe("findRawSql", () => {
  it("counts statements handed to drizzle as text, D1 prepares and whole sql statements, once each", () => {
    const src = `
      const a = await db.all<{ id: number }>(sql\`SELECT id FROM contacts\`);
      await deps.db.run(sql\`UPDATE contacts SET name = \${n}\`);
      const q = sql\`DELETE FROM tags\`;
      await runBatch(db, [q, db.run(q)]);
      const b = await db.$client.prepare("SELECT 1").first<{ one: number }>();
      const c = await db.select().from(contacts).where(sql\`(SELECT 1) = 1\`).all();
      await runBatch(db, bulkInsertStatements(t, rows, (j) => ({ values: {} })).map((q) => db.run(q)));
      const d = params.get("x");
      const e = sql<{ n: number }>\`WITH x AS (SELECT 1) SELECT * FROM x\`;
      await db.run(bulkUpdateSql(contacts, rows, (j) => ({ set: {}, where: sql\`1\` })));
      await Promise.all(others.map((q) => db.run(q)));
    `;
    const found = findRawSql(src);
    expect(found.filter((f) => f.kind === "raw").map((f) => f.line)).toEqual([2, 3, 4, 5, 6, 10, 12]);
    expect(found.filter((f) => f.kind === "typedRows").map((f) => f.line)).toEqual([2, 6, 10]);
  });

  it("reads the raw-sql marker above a statement", () => {
    const src = `
      // FTS5 MATCH has no builder form.
      // raw-sql: fts-match
      const rows = await db.all(sql\`SELECT rowid FROM contacts_fts WHERE contacts_fts MATCH \${q}\`);
      await db.run(sql\`DELETE FROM x\`);
    `;
    expect(findRawSql(src).map((f) => f.marker)).toEqual(["fts-match", null]);
  });
});

describe("raw SQL ratchet (decision 031)", () => {
  it("every folder's raw statements and hand-typed rows are at their budget, never above", () => {
    const { tally, problems } = tallyApp();
    // RAW_SQL_TALLY=1 prints the current figures in BUDGET's shape.
    if (process.env.RAW_SQL_TALLY) {
      console.log(
        Object.keys(tally)
          .sort()
          .map(
            (f) => `  ${f}: { raw: ${tally[f].raw}, typedRows: ${tally[f].typedRows} }, // allowed ${tally[f].allowed}`,
          )
          .join("\n"),
      );
    }
    expect(problems).toEqual([]);
    const over: string[] = [];
    const under: string[] = [];
    for (const folder of new Set([...Object.keys(tally), ...Object.keys(BUDGET)])) {
      const t = tally[folder] ?? { raw: 0, typedRows: 0, allowed: 0, where: { raw: [], typedRows: [] } };
      const b = BUDGET[folder] ?? { raw: 0, typedRows: 0 };
      for (const kind of ["raw", "typedRows"] as const) {
        if (t[kind] > b[kind])
          over.push(
            `${folder}: ${t[kind]} ${kind} > ${b[kind]} allowed — write the new statement with drizzle's builder (decision 031):\n    ${t.where[kind].join("\n    ")}`,
          );
        else if (t[kind] < b[kind])
          under.push(
            `${folder}: ${kind} fell to ${t[kind]} — lower BUDGET["${folder}"].${kind} from ${b[kind]} to ${t[kind]} in app/db/raw-sql-ratchet.node.test.ts`,
          );
      }
    }
    expect(over, over.join("\n")).toEqual([]);
    expect(under, under.join("\n")).toEqual([]);
  });

  it("every ALLOWED entry is still used", () => {
    const used = new Set<string>();
    for (const path of sourceFiles(appDir)) {
      const file = relative(appDir, path).split("\\").join("/");
      for (const f of findRawSql(readFileSync(path, "utf8"), file)) if (f.marker) used.add(`${file} ${f.marker}`);
    }
    const stale = Object.entries(ALLOWED).flatMap(([file, keys]) =>
      Object.keys(keys)
        .filter((k) => !used.has(`${file} ${k}`))
        .map((k) => `${file} ${k}`),
    );
    expect(stale).toEqual([]);
  });
});
