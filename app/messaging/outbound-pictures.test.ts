// Outbound MMS (issue 28 item 3, decision 076): a picture from the reply box is checked by its bytes, stored in R2,
// sent by the consumer as Twilio's MediaUrl (a fake on loopback records it), and served back from that signed URL
// byte for byte; the thread shows it; what is not a picture, or is too big, is refused with a clear message.
import { env } from "cloudflare:test";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { campaignSteps, messageMedia, messages } from "~/db/schema";
import type { EnrollCampaignJob } from "~/jobs/jobs";
import { createCampaign } from "~/campaigns/create-campaign.server";
import { startCampaign } from "~/campaigns/start-campaign.server";
import { runEnrollmentJob } from "~/campaigns/run-enrollment-job.server";
import { dispatchDueSteps } from "~/campaigns/dispatch-due-steps.server";
import { call, createTestUser, db, loginAs } from "../../tests/factories";
import { createTestContact } from "../../tests/contact-factory";
import { DAYTIME, pipeline } from "../../tests/messaging-harness";
import { sendMessages } from "./consume-send-batch.server";
import { sendReply } from "~/conversations/send-reply.server";
import { MAX_PICTURE_BYTES, PICTURE_SIZE_ERROR, PICTURE_TYPE_ERROR, sniffPicture } from "./outbound-pictures.server";

const PNG = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 7, 7, 7, 7, 1, 2, 3, 4]);

async function replyWith(file: Blob, name: string, message = "Here is your roof layout") {
  const rep = await createTestUser();
  const contact = await createTestContact(rep.id, { firstName: "Rosa" });
  const cookie = await loginAs(rep);
  const form = new FormData();
  form.set("intent", "reply");
  form.set("message", message);
  form.set("nonce", crypto.randomUUID());
  form.set("picture", file, name);
  const res = await call(`/contacts/${contact.id}`, { method: "POST", cookie, body: form });
  return { res, rep, contact, cookie };
}

describe("pictures sent as MMS (decision 076)", () => {
  it("tells a picture by its bytes, not its name", () => {
    expect(sniffPicture(PNG)).toBe("image/png");
    expect(sniffPicture(new Uint8Array([0xff, 0xd8, 0xff, 0xe0]))).toBe("image/jpeg");
    expect(sniffPicture(new TextEncoder().encode("GIF89a"))).toBe("image/gif");
    expect(sniffPicture(new TextEncoder().encode("MZ\x90\x00"))).toBeNull();
  });

  it("the reply box's picture is stored, sent as Twilio's MediaUrl, served back from it, and shown in the thread", async () => {
    const { res, rep, contact, cookie } = await replyWith(new Blob([PNG], { type: "image/png" }), "layout.png");
    expect(res.status, await res.clone().text()).toBe(302);
    const [row] = await db().select().from(messages).where(eq(messages.contactId, contact.id));
    expect(row.attachments).toEqual([
      { filename: "layout.png", contentType: "image/png", r2Key: expect.stringMatching(/^outbound\//), sizeBytes: 16 },
    ]);
    const key = (row.attachments![0] as { r2Key: string }).r2Key;
    expect(new Uint8Array(await (await env.MEDIA.get(key))!.arrayBuffer())).toEqual(PNG);

    // The consumer hands Twilio the picture's signed URL (the fake records every MediaUrl).
    const { deps, twilio, queue } = await pipeline({ clock: () => DAYTIME });
    await db().update(messages).set({ status: "queued" }).where(eq(messages.id, row.id));
    await sendMessages([{ v: 1, type: "send", messageId: row.id }], deps);
    const [sent] = await twilio.calls();
    expect(sent.body).toBe("Here is your roof layout");
    expect(sent.mediaUrls).toEqual([expect.stringMatching(new RegExp(`^https://helio\\.test/mms/${row.id}\\.0\\.`))]);
    expect(queue.sent).toEqual([]);

    // Twilio fetches it without a session: the same bytes, its checked type, inert.
    const served = await call(new URL(sent.mediaUrls[0]).pathname);
    expect(served.status).toBe(200);
    expect(served.headers.get("Content-Type")).toBe("image/png");
    expect(served.headers.get("Content-Security-Policy")).toContain("sandbox");
    expect(new Uint8Array(await served.arrayBuffer())).toEqual(PNG);
    // A forged or shifted token is a 404, like a missing one.
    const forged = new URL(sent.mediaUrls[0]).pathname.replace(/\.0\./, ".1.");
    expect((await call(forged)).status).toBe(404);
    expect((await call(`/mms/${row.id}.0.${"A".repeat(43)}`)).status).toBe(404);

    // The thread shows it like a lead's picture, through /media/:id for whoever sees the conversation.
    const [media] = await db().select().from(messageMedia).where(eq(messageMedia.messageId, row.id));
    expect(media).toMatchObject({ status: "stored", r2Key: key, contentType: "image/png" });
    const page = await (await call(`/contacts/${contact.id}`, { cookie })).text();
    expect(page).toContain(`/media/${media.id}`);
    expect(rep.id).toBeGreaterThan(0);
  });

  it("refuses what is not a JPEG, PNG or GIF (a program named .jpg) and a picture over 5 MB; nothing is sent", async () => {
    const exe = await replyWith(new Blob([new TextEncoder().encode("MZ\x90\x00 not a picture")]), "roof.jpg");
    expect(exe.res.status).toBe(415);
    expect(await exe.res.text()).toContain(PICTURE_TYPE_ERROR);
    expect(await db().select().from(messages).where(eq(messages.contactId, exe.contact.id))).toEqual([]);
    const big = new Uint8Array(MAX_PICTURE_BYTES + 1);
    big.set(PNG);
    const large = await replyWith(new Blob([big], { type: "image/png" }), "huge.png");
    expect(large.res.status).toBe(413);
    expect(await large.res.text()).toContain(PICTURE_SIZE_ERROR);
    expect(await db().select().from(messages).where(eq(messages.contactId, large.contact.id))).toEqual([]);
  });

  it("without a secret to sign its URL, the picture's message fails with the reason instead of going unsigned", async () => {
    const rep = await createTestUser();
    const contact = await createTestContact(rep.id);
    const { deps, twilio, queue } = await pipeline({ clock: () => DAYTIME, config: { linkSecret: null } });
    await env.MEDIA.put("outbound/test-unsigned.png", PNG);
    const picture = { filename: "a.png", contentType: "image/png", r2Key: "outbound/test-unsigned.png", sizeBytes: 16 };
    const sent = await sendReply(
      { db: db(), queue, now: DAYTIME, hooks: deps.hooks as never },
      { contactId: contact.id },
      { message: "Layout", nonce: crypto.randomUUID() },
      { userId: rep.id, role: "user", ipAddress: null },
      undefined,
      picture,
    );
    await sendMessages(queue.takeSendJobs(), deps);
    expect(await twilio.calls()).toEqual([]);
    const row = await db().select().from(messages).where(eq(messages.id, sent.id!)).get();
    expect(row).toMatchObject({ status: "failed" });
    expect(row?.errorMessage).toContain("SESSION_SECRET");
  });
});

describe("a campaign SMS step's picture (decision 076)", () => {
  it("is stored from the step form, and each of the step's texts carries it to Twilio as MMS", async () => {
    const rep = await createTestUser();
    const cookie = await loginAs(rep);
    const actor = { userId: rep.id, role: "user" as const, ipAddress: null };
    const contact = await createTestContact(rep.id, { firstName: "Rosa" });
    const c = await createCampaign(db(), { name: "Roof photos", contactIds: [contact.id] }, actor, DAYTIME);
    const stepForm = (fields: Record<string, string>, picture?: Blob) => {
      const f = new FormData();
      f.set("intent", "add");
      for (const [k, v] of Object.entries({ name: "Layout", delayDays: "0", delayHours: "0", ...fields })) f.set(k, v);
      if (picture) f.set("picture", picture, "layout.png");
      return call(`/campaigns/${c.id}/steps`, { method: "POST", cookie, body: f });
    };
    // An email step takes no picture: refused beside the field, nothing added.
    const email = await stepForm(
      { messageType: "email", subject: "Layout", content: "Hi {{firstName}}" },
      new Blob([PNG]),
    );
    expect(email.status).toBe(400);
    expect(await email.text()).toContain("A picture goes with an SMS step");
    const added = await stepForm({ messageType: "sms", content: "Hi {{firstName}}, your layout" }, new Blob([PNG]));
    expect(added.status).toBe(302);
    const [step] = await db().select().from(campaignSteps).where(eq(campaignSteps.campaignId, c.id));
    expect(step.picture).toMatchObject({ filename: "layout.png", contentType: "image/png", sizeBytes: 16 });

    const { deps, twilio, queue } = await pipeline({ clock: () => DAYTIME });
    await startCampaign(db(), queue, c.id, actor, DAYTIME);
    for (const job of queue.sent.splice(0) as EnrollCampaignJob[])
      await runEnrollmentJob(job, { db: db(), queue, now: DAYTIME });
    await dispatchDueSteps(db(), queue, DAYTIME);
    await sendMessages(queue.takeSendJobs(), deps);
    const [sent] = await twilio.calls();
    expect(sent).toMatchObject({ to: contact.phone, body: "Hi Rosa, your layout" });
    const [row] = await db().select().from(messages).where(eq(messages.campaignId, c.id));
    expect(sent.mediaUrls).toEqual([expect.stringMatching(new RegExp(`/mms/${row.id}\\.0\\.`))]);
    const served = await call(new URL(sent.mediaUrls[0]).pathname);
    expect(new Uint8Array(await served.arrayBuffer())).toEqual(PNG);
    // Filed with the message, so the contact's thread shows it.
    expect(await db().select().from(messageMedia).where(eq(messageMedia.messageId, row.id))).toHaveLength(1);
  });
});
