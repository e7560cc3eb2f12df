import { applyD1Migrations, env } from "cloudflare:test";
import { afterAll } from "vitest";
import worker from "../workers/app";
import { noteQueueSends, resetTestStorage, settleQueues, startTestFile } from "./reset-storage";

declare global {
  namespace Cloudflare {
    interface Env {
      TEST_MIGRATIONS: import("cloudflare:test").D1Migration[];
    }
  }
}

// Idempotent: applies only migrations not yet recorded in this test database.
await applyD1Migrations(env.DB, env.TEST_MIGRATIONS);
// Test files share one workerd runtime per vitest worker (`isolate: false`, decision 051); each file still starts
// from the freshly migrated database and an empty bucket.
startTestFile(worker as never);
await resetTestStorage(env);
// A file's queue jobs still in flight when it ends would otherwise run against the next file's rows.
noteQueueSends(env.JOBS);
afterAll(settleQueues);
