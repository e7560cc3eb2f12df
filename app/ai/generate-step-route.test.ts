import { describe, expect, it } from "vitest";
import { addCampaignStep } from "~/campaigns/add-campaign-step.server";
import { checkStep } from "~/campaigns/campaign-schema";
import { createCampaign } from "~/campaigns/create-campaign.server";
import { saveOrgSettings } from "~/messaging/org-settings.server";
import { call, createTestUser, db, loginAs } from "../../tests/factories";

// "Generate with AI" without JS: a form POST that redirects back to the step editor with the draft in the query.
/** Posts the Generate with AI form as the browser does and returns where it redirects to (always a redirect). */
async function generateStep(cookie: string, fields: Record<string, string>) {
  const res = await call("/ai/generate-step", {
    method: "POST",
    cookie,
    body: new URLSearchParams(fields),
    headers: { "Content-Type": "application/x-www-form-urlencoded" },
    redirect: "manual",
  });
  expect(res.status).toBe(302);
  return new URL(res.headers.get("Location")!, "https://helio.test");
}

describe("POST /ai/generate-step", () => {
  it("drafts from the campaign's brief and its earlier steps, and comes back to the editor with a step name", async () => {
    const user = await createTestUser();
    const cookie = await loginAs(user);
    await saveOrgSettings(db(), { company: "Bright Roof Solar" }, new Date());
    const c = await createCampaign(
      db(),
      { name: "Autumn Roofs", description: "Free roof checks before winter." },
      { userId: user.id, role: "superuser", ipAddress: null },
      new Date(),
    );
    await addCampaignStep(
      db(),
      c.id,
      checkStep({ name: "Intro", messageType: "sms", content: "Hi {{firstName}}", delayDays: 0, delayHours: 0 }),
      new Date(),
    );
    const to = await generateStep(cookie, {
      campaignId: String(c.id),
      stepNumber: "2",
      messageType: "email",
      option: "value",
      returnTo: `/campaigns/${c.id}?step=new`,
    });
    expect(to.pathname).toBe(`/campaigns/${c.id}`);
    expect(to.searchParams.get("step")).toBe("new");
    expect(to.searchParams.get("aiOption")).toBe("value");
    expect(to.searchParams.get("aiSubject")).toBeTruthy();
    // The campaign name is internal (decision 025): the homeowner sees the company and the rep, never "Autumn Roofs".
    expect(to.searchParams.get("aiContent")).not.toMatch(/Autumn Roofs/);
    expect(to.searchParams.get("aiSubject")).not.toMatch(/Autumn Roofs/);
    expect(to.searchParams.get("aiContent")).toMatch(/\nBright Roof Solar$/);
    expect(to.searchParams.get("aiName")).toBe("Value email");
  });

  it("never redirects off-site, and reports errors in the query", async () => {
    const user = await createTestUser();
    const cookie = await loginAs(user);
    const to = await generateStep(cookie, {
      campaignId: "999999",
      stepNumber: "1",
      messageType: "sms",
      option: "introduction",
      returnTo: "//evil.example/x",
    });
    expect(to.origin).toBe("https://helio.test");
    expect(to.pathname).toBe("/campaigns");
    expect(to.searchParams.get("aiError")).toBe("Campaign not found");
  });
});
