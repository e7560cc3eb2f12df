// The floors of Helio (issue 25, decision 029): a local ESLint plugin that holds the layering ARCHITECTURE.md draws.
// Every source file under app/ and workers/ stands on one floor. An import may go down to any lower floor or stay in
// its own folder; it may not go up, and it may go sideways (another folder on the same floor) only where SIDEWAYS
// declares it. A folder with no floor is an error too, so a new folder is placed on purpose. Tests are not on a floor.
import path from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

/** Top to bottom. A unit is a folder under app/ ("workers" is the folder beside it). */
export const FLOORS = [
  {
    name: "entry",
    // Routes, the Worker entry, Remix's root and entry files, the composition root and the queue/cron dispatchers.
    units: ["routes", "workers", "wiring", "(app root)", "(dispatchers)"],
    sidewaysFree: true,
  },
  { name: "http", units: ["http"] },
  {
    name: "features",
    units: [
      "campaigns",
      "responders",
      "ai",
      "conversations",
      "templates",
      "analytics",
      "users",
      "quick-send",
      "playground",
      "message-center",
      "idea-generator",
      "webhooks",
      "push",
      "appointments",
      "deliverability",
      "savings",
    ],
  },
  { name: "pipeline", units: ["messaging"] },
  // Saved segments (decision 075): filters over contacts that campaigns and the pipeline's broadcasts evaluate.
  { name: "segments", units: ["segments"] },
  { name: "contacts", units: ["contacts"] },
  { name: "services", units: ["auth", "caps", "jobs", "components"] },
  { name: "records", units: ["activity", "toast", "security"] },
  { name: "db", units: ["db"] },
  { name: "lib", units: ["lib"] },
];

/** Files that stand on a higher floor than their folder: the dispatchers are entry points like the routes. */
export const FILE_FLOORS = {
  "app/jobs/job-handlers.server": "(dispatchers)",
  "app/jobs/run-scheduled-tick.server": "(dispatchers)",
};

/** The sideways imports the features floor allows, each with why. Kept acyclic (floors.node.test.mjs checks). */
export const SIDEWAYS = {
  ai: { campaigns: "the step drafter writes with the campaign step's variables (STEP_VARIABLES)" },
  appointments: {
    campaigns: "the booking form takes its time with the one time input, ZonedDateTimeField (decision 055)",
  },
  analytics: {
    campaigns: "the Analytics screen reuses the campaign stats statements",
    "message-center": "Recent Message Activity is the Message Center's list of customer messages",
  },
  conversations: {
    templates: "the reply box offers the template picker",
    ai: "a rep's suggested reply is drafted by the AI chain and its offline composer (decision 047)",
    campaigns:
      "send later and the snooze form take their time with the one time input, ZonedDateTimeField and localToUtc",
    "message-center": "a thread's rows are the Message Center's list items",
    savings: "a suggested reply is told the contact's savings estimate (decision 074)",
  },
  "idea-generator": { ai: "the Idea Generator answers through the AI chain and its offline chat composer" },
  playground: { templates: "the Testing Playground picks a template" },
  responders: { ai: "auto-replies are drafted and classified by the AI chain" },
  savings: { ai: "the bill reader reads a bill photo through the AI chain (decision 077)" },
};

const floorIndex = new Map(FLOORS.flatMap((f, i) => f.units.map((u) => [u, i])));

const stripExt = (p) => p.replace(/\.(ts|tsx|js|mjs|cjs|jsx)$/, "");

/** The unit of a repository-relative path, or null when it stands on no floor (tests, scripts, outside the app). */
export function unitOf(rel) {
  const p = rel.split(path.sep).join("/");
  if (/\.test\.[^/]+$/.test(p) || p.includes("/__fixtures__/")) return null;
  if (p.startsWith("workers/")) return "workers";
  if (!p.startsWith("app/")) return null;
  const file = FILE_FLOORS[stripExt(p)];
  if (file) return file;
  const parts = p.slice(4).split("/");
  return parts.length === 1 ? "(app root)" : parts[0];
}

/** The repository-relative path an import names, or null for a package. */
function targetOf(spec, filename) {
  if (spec.startsWith("~/")) return path.join("app", spec.slice(2));
  if (spec.startsWith("./") || spec.startsWith("../"))
    return path.relative(ROOT, path.resolve(path.dirname(filename), spec));
  return null;
}

const describe = (unit) => (unit.startsWith("(") ? unit : `${unit}/`);

/** Why an import from unit `from` to unit `to` breaks the floors, or null when it may stand. */
export function verdict(from, to) {
  if (from === to) return null;
  const a = floorIndex.get(from);
  const b = floorIndex.get(to);
  if (a === undefined) return `${describe(from)} stands on no floor: add it to FLOORS in eslint/floors.js`;
  if (b === undefined) return `${describe(to)} stands on no floor: add it to FLOORS in eslint/floors.js`;
  if (b > a) return null;
  if (from === "lib")
    return `lib/ is the ground floor: it imports nothing from another app folder (here ${describe(to)})`;
  if (b < a)
    return `${describe(from)} (floor "${FLOORS[a].name}") may not import from ${describe(to)}, a higher floor ("${FLOORS[b].name}")`;
  if (FLOORS[a].sidewaysFree || SIDEWAYS[from]?.[to]) return null;
  return `${describe(from)} may not import from ${describe(to)}: both stand on the "${FLOORS[a].name}" floor and SIDEWAYS in eslint/floors.js does not allow it`;
}

/** Each import-like node's source literal. */
function importSources(context, check) {
  const visit = (node) =>
    node.source && node.source.type === "Literal" && typeof node.source.value === "string" && check(node.source);
  return {
    ImportDeclaration: visit,
    ExportNamedDeclaration: visit,
    ExportAllDeclaration: visit,
    ImportExpression: visit,
  };
}

const layers = {
  meta: {
    type: "problem",
    docs: {
      description:
        "Imports go down the floors (or sideways where declared), never up; lib/ imports no other app folder.",
    },
    schema: [
      {
        type: "object",
        properties: {
          // Temporary exceptions: one importing file and the unit it may reach, with why. See eslint.config.js.
          allow: {
            type: "array",
            items: {
              type: "object",
              properties: { from: { type: "string" }, to: { type: "string" }, why: { type: "string" } },
              required: ["from", "to", "why"],
              additionalProperties: false,
            },
          },
        },
        additionalProperties: false,
      },
    ],
    messages: { floor: "{{why}}" },
  },
  create(context) {
    const rel = path.relative(ROOT, context.filename).split(path.sep).join("/");
    const from = unitOf(rel);
    if (!from) return {};
    const allowed = new Set((context.options[0]?.allow ?? []).filter((a) => a.from === rel).map((a) => a.to));
    return importSources(context, (source) => {
      const target = targetOf(source.value, context.filename);
      if (!target) return;
      const to = unitOf(target);
      if (!to || allowed.has(to)) return;
      const why = verdict(from, to);
      if (why) context.report({ node: source, messageId: "floor", data: { why } });
    });
  },
};

/** Domain modules take what they need as arguments; only the entry and http floors speak Remix. */
const noRemixInDomain = {
  meta: {
    type: "problem",
    docs: {
      description:
        "A domain module (app/**/*.server.ts outside the entry and http floors) imports nothing from @remix-run/*.",
    },
    schema: [],
    messages: {
      remix: "{{file}} is a domain module: it may not import {{pkg}} (move the HTTP part to app/http/ or a route)",
    },
  },
  create(context) {
    const rel = path.relative(ROOT, context.filename).split(path.sep).join("/");
    const unit = unitOf(rel);
    if (!unit || !rel.endsWith(".server.ts") || ["entry", "http"].includes(FLOORS[floorIndex.get(unit)]?.name))
      return {};
    return importSources(context, (source) => {
      if (source.value.startsWith("@remix-run/"))
        context.report({ node: source, messageId: "remix", data: { file: rel, pkg: source.value } });
    });
  },
};

export default {
  meta: { name: "floors" },
  rules: { layers, "no-remix-in-domain": noRemixInDomain },
};
