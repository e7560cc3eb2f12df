// ESLint (flat config): typescript-eslint, React hooks and jsx-a11y; the floors (eslint/floors.js) and no file-level
// cycles (import-x). `npm run lint` allows zero warnings.
import js from "@eslint/js";
import { createTypeScriptImportResolver } from "eslint-import-resolver-typescript";
import importX from "eslint-plugin-import-x";
import jsxA11y from "eslint-plugin-jsx-a11y";
import reactHooks from "eslint-plugin-react-hooks";
import globals from "globals";
import tseslint from "typescript-eslint";
import floors from "./eslint/floors.js";

/**
 * Emptied by h2's hooks (decision 028): the pipeline imports none of the features built on it. Kept, empty, so the
 * floors test's check of it stays in place; nothing may be added here.
 */
export const PIPELINE_BACK_EDGES_PENDING_HOOKS = [];

export default tseslint.config(
  {
    ignores: [
      "build/**",
      "public/build/**",
      ".wrangler/**",
      "node_modules/**",
      "worker-configuration.d.ts",
      "bench/out/**",
      "tests/e2e/artifacts/**",
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ["**/*.{ts,tsx}"],
    ...reactHooks.configs.flat.recommended,
  },
  {
    files: ["app/**/*.tsx"],
    ...jsxA11y.flatConfigs.recommended,
  },
  {
    languageOptions: { globals: { ...globals.browser, ...globals.node, ...globals.serviceworker } },
    rules: {
      "@typescript-eslint/no-unused-vars": [
        "error",
        { argsIgnorePattern: "^_", varsIgnorePattern: "^_", caughtErrors: "none" },
      ],
      // `catch {}` is how best-effort cleanup says "ignore"; `a && b()` is idiomatic.
      "no-empty": ["error", { allowEmptyCatch: true }],
      "@typescript-eslint/no-unused-expressions": ["error", { allowShortCircuit: true, allowTernary: true }],
      // `declare global { namespace Cloudflare { interface Env … } } }` is how bindings are typed.
      "@typescript-eslint/no-namespace": ["error", { allowDeclarations: true }],
    },
  },
  {
    // Tests read untyped JSON bodies from the Worker and the fakes.
    files: ["**/*.test.ts", "tests/**/*.ts"],
    rules: { "@typescript-eslint/no-explicit-any": "off" },
  },
  {
    // Node scripts, benchmarks and browser tests are plain JavaScript.
    files: ["**/*.{js,mjs,cjs}"],
    rules: { "@typescript-eslint/no-require-imports": "off" },
  },
  {
    // The floors (decision 029): imports go down, sideways only where eslint/floors.js declares it; lib/ imports no
    // other app folder; domain modules never import Remix; no two files import each other, however indirectly.
    files: ["app/**/*.{ts,tsx,js}", "workers/**/*.ts"],
    ignores: ["**/*.test.*"],
    plugins: { floors, "import-x": importX },
    settings: {
      "import-x/resolver-next": [createTypeScriptImportResolver({ project: "./tsconfig.json" })],
      "import-x/parsers": { "@typescript-eslint/parser": [".ts", ".tsx"] },
      "import-x/extensions": [".ts", ".tsx", ".js"],
    },
    rules: {
      "floors/layers": ["error", { allow: PIPELINE_BACK_EDGES_PENDING_HOOKS }],
      "floors/no-remix-in-domain": "error",
      "import-x/no-cycle": ["error", { ignoreExternal: true }],
      // Decision 062: toLocaleString/toLocaleDateString with a locale build a new Intl formatter on every call, tens of
      // microseconds each, hundreds per list page. Counts go through formatCount; dates through a formatter made once.
      "no-restricted-syntax": [
        "error",
        {
          selector: "CallExpression[callee.property.name=/^toLocale(Date|Time)?String$/][arguments.length>0]",
          message: "Use formatCount (~/lib/format-count) or an Intl formatter made once at module level.",
        },
      ],
    },
  },
);
