import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { checkStep } from "~/campaigns/campaign-schema";
import { createTemplate } from "~/templates/create-template.server";
import { updateTemplate } from "~/templates/update-template.server";
import { createTestContact } from "../../tests/contact-factory";
import { createTestUser, db } from "../../tests/factories";
import { appHooks, DAYTIME, pipeline } from "../../tests/messaging-harness";
import { findLinkShortener } from "./link-shorteners";
import { sendBroadcast } from "./send-broadcast.server";
import { sendIndividual } from "./send-individual.server";

// Issue 29: carriers filter public shorteners, so an SMS holding one is refused where it is written.
const REFUSAL = "Links through bit.ly are filtered by carriers: use the full link or your own domain.";
const messageCount = async () => (await db().get<{ n: number }>(sql`SELECT count(*) AS n FROM messages`))!.n;

describe("public link shorteners are refused at compose time for SMS (issue 29)", () => {
  it("finds the shortener's domain, never a look-alike path or domain", () => {
    expect(findLinkShortener("see tinyurl.com/x")).toBe("tinyurl.com");
    expect(findLinkShortener("go to https://BIT.LY/abc now")).toBe("bit.ly");
    expect(findLinkShortener("visit https://helio.example/t.co")).toBeNull();
    expect(findLinkShortener("about.com and robit.lyric.example")).toBeNull();
  });

  it("a broadcast and an individual SMS are refused and nothing is written; email goes", async () => {
    const { deps, queue } = await pipeline({ clock: () => DAYTIME });
    const user = await createTestUser();
    const contact = await createTestContact(user.id, { email: `r${crypto.randomUUID().slice(0, 6)}@example.com` });
    const actor = { userId: user.id, role: "superuser" as const, ipAddress: null };
    const ctx = { db: deps.db, queue, now: DAYTIME, hooks: appHooks };
    const before = await messageCount();
    await expect(
      sendBroadcast(ctx, { type: "sms", content: "Offer: bit.ly/abc", contactIds: [contact.id] }, actor),
    ).rejects.toMatchObject({ code: "validation", message: REFUSAL });
    await expect(
      sendIndividual(ctx, { contactId: contact.id, type: "sms", message: "See https://bit.ly/abc" }, actor),
    ).rejects.toMatchObject({ code: "validation", message: REFUSAL });
    expect(await messageCount()).toBe(before);
    await sendIndividual(
      ctx,
      { contactId: contact.id, type: "email", subject: "Offer", message: "See https://bit.ly/abc" },
      actor,
    );
    expect(await messageCount()).toBe(before + 1);
  });

  it("an SMS campaign step and an SMS template are refused; an email step and template are kept", async () => {
    const step = {
      name: "Intro",
      messageType: "sms" as const,
      content: "Hi {{firstName}}, bit.ly/abc",
      delayDays: 0,
      delayHours: 0,
    };
    expect(() => checkStep(step)).toThrow(REFUSAL);
    expect(() => checkStep({ ...step, messageType: "email", subject: "Hi" })).not.toThrow();

    await expect(
      createTemplate(db(), { name: "Short", type: "sms", content: "bit.ly/abc" }, null, DAYTIME),
    ).rejects.toMatchObject({ code: "validation", message: REFUSAL });
    const t = await createTemplate(
      db(),
      { name: "Mail", type: "email", subject: "S", content: "bit.ly/abc" },
      null,
      DAYTIME,
    );
    await expect(updateTemplate(db(), t.id, { type: "sms" }, DAYTIME)).rejects.toMatchObject({ message: REFUSAL });
  });
});
