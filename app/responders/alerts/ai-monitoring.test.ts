import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { aiClassifications, alerts } from "~/db/schema";
import { db } from "../../../tests/factories";
import { CLASSIFICATION_NOT_FOUND, listRecentClassifications, markClassification } from "./ai-monitoring.server";

const addClassification = async (text: string, createdAt: Date) =>
  (
    await db()
      .insert(aiClassifications)
      .values({
        textPreview: text,
        intent: "pricing",
        sentiment: "neutral",
        confidence: 82,
        provider: "local",
        analysisMs: 37,
        createdAt,
      })
      .returning()
  )[0];

describe("AI monitoring", () => {
  it("lists recent classifications newest first with their figures", async () => {
    const tag = crypto.randomUUID();
    // Far in the future so other tests' rows never come before them.
    const older = await addClassification(`older ${tag}`, new Date("2099-01-01T00:00:00Z"));
    const newer = await addClassification(`newer ${tag}`, new Date("2099-01-02T00:00:00Z"));
    const rows = await listRecentClassifications(db(), 2);
    expect(rows.map((r) => r.id)).toEqual([newer.id, older.id]);
    expect(rows[0]).toMatchObject({
      textPreview: `newer ${tag}`,
      intent: "pricing",
      sentiment: "neutral",
      confidence: 82,
      analysisMs: 37,
      markedCorrect: null,
    });
  });

  it("marks a classification right or wrong, and the alert raised from it carries the verdict", async () => {
    const c = await addClassification("how much?", new Date());
    const [alert] = await db()
      .insert(alerts)
      .values({
        content: "how much?",
        priority: "medium",
        category: "information request",
        status: "acknowledged",
        classificationId: c.id,
      })
      .returning();
    await markClassification(db(), c.id, "wrong");
    const read = async () => ({
      cls: await db().get<{ m: number | null }>(
        sql`SELECT marked_correct AS m FROM ai_classifications WHERE id = ${c.id}`,
      ),
      alert: await db().get<{ v: string | null }>(sql`SELECT verdict AS v FROM alerts WHERE id = ${alert.id}`),
    });
    expect(await read()).toEqual({ cls: { m: 0 }, alert: { v: "wrong" } });
    await markClassification(db(), c.id, "right");
    expect(await read()).toEqual({ cls: { m: 1 }, alert: { v: "right" } });
    await expect(markClassification(db(), 999_999_999, "right")).rejects.toThrow(CLASSIFICATION_NOT_FOUND);
  });
});
