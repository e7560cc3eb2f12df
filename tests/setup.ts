import { applyD1Migrations, env } from "cloudflare:test";

declare global {
  namespace Cloudflare {
    interface Env {
      TEST_MIGRATIONS: import("cloudflare:test").D1Migration[];
    }
  }
}

// Idempotent: applies only migrations not yet recorded in this test database.
await applyD1Migrations(env.DB, env.TEST_MIGRATIONS);
