import { defineConfig } from "drizzle-kit";

// drizzle-kit writes SQL migrations that `wrangler d1 migrations apply` runs; never edit an applied one.
export default defineConfig({
  dialect: "sqlite",
  schema: "./app/db/schema/index.ts",
  out: "./migrations",
});
