import { describe, expect, it } from "vitest";
import { AppError } from "~/lib/app-error";
import { call, createTestUser, db, loginAs } from "../../tests/factories";
import { AI_CALLS_PER_MINUTE, consumeAiQuota } from "./consume-ai-quota.server";

describe("AI rate limit", () => {
  it("counts per user per minute and refuses past the limit with a retry time", async () => {
    const a = await createTestUser();
    const b = await createTestUser();
    const t = new Date("2026-11-24T10:00:10Z");
    for (let i = 1; i <= 3; i++) expect((await consumeAiQuota(db(), a.id, t, 3)).calls).toBe(i);
    const err = await consumeAiQuota(db(), a.id, t, 3).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(AppError);
    expect(err).toMatchObject({ code: "rate_limited", retryAfter: 50 });
    expect((err as Error).message).toMatch(/AI request limit reached \(3 per minute\)/);
    // Another user is not affected; the next minute starts afresh.
    expect((await consumeAiQuota(db(), b.id, t, 3)).calls).toBe(1);
    expect((await consumeAiQuota(db(), a.id, new Date("2026-11-24T10:01:00Z"), 3)).calls).toBe(1);
  });

  it("the API answers 429 with a clear message and Retry-After", async () => {
    const user = await createTestUser();
    const cookie = await loginAs(user);
    const ask = () =>
      call("/api/ai/chat", { method: "POST", cookie, json: { message: "Ideas for a referral campaign" } });
    const first = await ask();
    expect(first.status).toBe(200);
    const body = (await first.json()) as { response: string; suggestions: string[]; provider: string };
    expect(body.provider).toBe("offline");
    expect(body.suggestions.length).toBeLessThanOrEqual(3);
    expect(body.response).toMatch(/referral/i);
    let last = first;
    for (let i = 1; i <= AI_CALLS_PER_MINUTE; i++) last = await ask();
    // The window may roll over mid-loop; the 21st call within one minute is refused.
    if (last.status === 200) last = await ask();
    expect(last.status).toBe(429);
    expect(Number(last.headers.get("Retry-After"))).toBeGreaterThan(0);
    expect(((await last.json()) as { message: string }).message).toMatch(/AI request limit reached/);
  });
});
