import { env } from "cloudflare:test";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { activityLog } from "~/db/schema";
import { purgeActivityTask, runScheduledTick } from "~/jobs/run-scheduled-tick.server";
import { createTestUser, db } from "../../tests/factories";
import { requestContext } from "./request-context.server";
import { tickDeps } from "./app-deps.server";

// Settings reach the cron tick and the screens through the composition root, never from `env` in a task or route.
describe("the composition root's settings", () => {
  it("the tick purges activity by the ACTIVITY_RETENTION_DAYS the root read", async () => {
    const u = await createTestUser();
    const now = new Date("2032-03-01T00:00:00Z");
    const day = 86_400_000;
    await db()
      .insert(activityLog)
      .values([
        { userId: u.id, action: "older", createdAt: new Date(now.getTime() - 31 * day) },
        { userId: u.id, action: "newer", createdAt: new Date(now.getTime() - 29 * day) },
      ]);
    // A later retention (the default 365 days) would keep both.
    await runScheduledTick(tickDeps({ ...env, ACTIVITY_RETENTION_DAYS: "30" } as Env, now), [purgeActivityTask]);
    const left = await db().select().from(activityLog).where(eq(activityLog.userId, u.id)).all();
    expect(left.map((e) => e.action)).toEqual(["newer"]);
  });

  it("the alert screens' sales address and the tick's archive bucket come from the root", () => {
    const ctx = requestContext(env, {} as ExecutionContext, "nonce");
    expect(ctx.alerts().salesAlertEmail).toBe("sales-alerts@helio.test");
    expect(tickDeps(env, new Date()).archive).toBe(env.ARCHIVE);
  });
});
