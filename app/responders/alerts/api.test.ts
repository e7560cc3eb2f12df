import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { call, createTestUser, db, loginAs } from "../../../tests/factories";
import { uniqueTag } from "../../../tests/contact-factory";

describe("smart alert and auto-responder API", () => {
  it("POST /api/test-smart-alert: Message Required; a matching message shows the match and emails the sales address", async () => {
    const user = await createTestUser();
    const cookie = await loginAs(user);
    const empty = await call("/api/test-smart-alert", { method: "POST", cookie, json: { message: "  " } });
    expect(empty.status).toBe(400);
    expect(await empty.json()).toEqual({ message: "Message Required" });

    const word = uniqueTag("kw");
    const bank = await call("/api/keyword-banks", {
      method: "POST",
      cookie,
      json: { category: "Scheduling", keywords: `${word}, visit`, priority: "high" },
    });
    expect(bank.status).toBe(201);
    const bankBody = (await bank.json()) as { id: number; useAI: boolean; keywords: string[] };
    expect(bankBody).toMatchObject({ useAI: false, keywords: [word, "visit"] });
    const res = await call("/api/test-smart-alert", {
      method: "POST",
      cookie,
      json: { message: `Can you ${word} on Tuesday?` },
    });
    expect(res.status).toBe(200);
    const body = (await res.json()) as Record<string, any>;
    expect(body.banks.map((b: { id: number }) => b.id)).toEqual([bankBody.id]);
    expect(body).toMatchObject({
      priority: "high",
      category: "appointment request",
      sentTo: "sales-alerts@helio.test",
    });
    expect(body.classification.intent).toBeTypeOf("string");
    const mail = await db().get<{ email: string; kind: string }>(
      sql`SELECT email, kind FROM messages WHERE idempotency_key = ${`alert:${body.alertId}:sales-alerts@helio.test`}`,
    );
    expect(mail).toEqual({ email: "sales-alerts@helio.test", kind: "alert" });
    await call(`/api/keyword-banks/${bankBody.id}`, { method: "PUT", cookie, json: { isActive: false } });
  });

  it("auto-responders: create with defaults, partial PUT, the SPEC's message on bad input, delete", async () => {
    const cookie = await loginAs(await createTestUser());
    const bad = await call("/api/auto-responders", {
      method: "POST",
      cookie,
      json: { name: "x", keywords: [" "], responses: { primary: "hi" } },
    });
    expect(bad.status).toBe(400);
    expect(await bad.json()).toEqual({ message: "Please fill in name, keywords, and primary response." });
    const res = await call("/api/auto-responders", {
      method: "POST",
      cookie,
      json: { name: "Pricing", keywords: [uniqueTag("kw")], responses: { primary: "hi" }, isActive: false },
    });
    expect(res.status).toBe(201);
    const r = (await res.json()) as Record<string, any>;
    expect(r).toMatchObject({
      category: "solar_inquiry",
      triggerType: "keyword_match",
      conditions: { confidence: 70 },
      scheduling: { timezone: "America/Los_Angeles" },
    });
    const put = await call(`/api/auto-responders/${r.id}`, {
      method: "PUT",
      cookie,
      json: { isActive: true, conditions: { confidence: 80 } },
    });
    expect(await put.json()).toMatchObject({
      isActive: true,
      name: "Pricing",
      conditions: { confidence: 80, sentiment: "any" },
    });
    await call(`/api/auto-responders/${r.id}`, { method: "PUT", cookie, json: { isActive: false } });
    expect(
      (await call(`/api/auto-responders/${r.id}`, { method: "PUT", cookie, json: { aiSettings: { maxLength: 20 } } }))
        .status,
    ).toBe(400);
    expect((await call(`/api/auto-responders/${r.id}`, { method: "DELETE", cookie })).status).toBe(204);
    expect((await call(`/api/auto-responders/${r.id}`, { method: "DELETE", cookie })).status).toBe(404);
  });

  it("GET /api/ai-analytics returns recorded figures", async () => {
    const cookie = await loginAs(await createTestUser());
    const res = await call("/api/ai-analytics", { cookie });
    expect(res.status).toBe(200);
    const body = (await res.json()) as Record<string, unknown>;
    expect(Object.keys(body).sort()).toEqual(
      [
        "accuracy",
        "activeResponders",
        "averageAnalysisMs",
        "averageAutoResponseMs",
        "averageConfidence",
        "classifications",
        "escalations",
        "markedCount",
        "repliesToday",
        "successRates",
        "trendingKeywords",
      ].sort(),
    );
  });
});
