// The AI bill reader (issue 28 item 5, decision 077): a lead's bill photo, fetched from the fake Twilio into R2 as
// any inbound MMS, goes to a vision model (the fake OpenAI-compatible server) and fills the contact's blank bill, use
// and utility — never a figure a rep typed; offline, a non-bill or a malformed answer writes nothing.
import { env } from "cloudflare:test";
import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { activityLog, contacts } from "~/db/schema";
import { createOfflineComposer } from "~/ai/providers/offline.server";
import { fetchInboundMedia } from "~/messaging/fetch-inbound-media.server";
import { receiveInboundSms } from "~/messaging/receive-inbound.server";
import { createTwilioSms } from "~/messaging/providers/twilio.server";
import { newFakeTwilioAccount, openAiCalls } from "../../tests/fakes/control";
import { createTestUser, db } from "../../tests/factories";
import { createTestContact } from "../../tests/contact-factory";
import { recordingQueue } from "../../tests/messaging-harness";
import { fakeOpenAiChain, keyAnswering } from "../../tests/ai-chain";
import { readBillPhotos } from "./read-bill-photos.server";

const PNG = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 9, 8, 7, 6]);
const READING = { isBill: true, utility: "Pacific Gas & Electric", monthlyKwh: 612, amountDollars: 187.45 };

/** A contact who texts a bill photo, fetched into R2 as the inbound-media job does. */
async function billPhotoFrom(fields: Partial<typeof contacts.$inferInsert> = {}) {
  const twilio = await newFakeTwilioAccount();
  const rep = await createTestUser();
  const contact = await createTestContact(rep.id);
  if (Object.keys(fields).length) await db().update(contacts).set(fields).where(eq(contacts.id, contact.id));
  const url = await twilio.addMedia(PNG, "image/png");
  const r = await receiveInboundSms(
    db(),
    recordingQueue(),
    {
      sid: "MM" + crypto.randomUUID().replace(/-/g, ""),
      from: contact.phone!,
      to: "+15005550006",
      body: "",
      media: [{ url, contentType: "image/png" }],
    },
    new Date(),
  );
  const deps = { db: db(), bucket: env.MEDIA, sms: () => createTwilioSms(twilio.config()), now: new Date() };
  await fetchInboundMedia(deps, [r.messageId!]);
  return { contact, messageId: r.messageId! };
}

const contactRow = (id: number) => db().select().from(contacts).where(eq(contacts.id, id)).get();

describe("the AI bill reader (decision 077)", () => {
  it("sends the photo to the vision model and fills the contact's bill, use and utility", async () => {
    const { contact, messageId } = await billPhotoFrom();
    const key = await keyAnswering(READING);
    const r = await readBillPhotos({ db: db(), bucket: env.MEDIA, ai: fakeOpenAiChain(key), now: new Date() }, [
      messageId,
    ]);
    expect(r).toEqual({ read: 1 });
    expect(await contactRow(contact.id)).toMatchObject({
      monthlyBillCents: 18745,
      monthlyKwh: 612,
      utilityName: "Pacific Gas & Electric",
    });
    // The model saw the picture itself (a data URL of its bytes), and was told its words are data.
    const [call] = await openAiCalls(key);
    const user = call.messages.find((m) => m.role === "user")!.content as unknown as {
      type: string;
      image_url?: { url: string };
    }[];
    const image = user.find((p) => p.type === "image_url")!.image_url!.url;
    expect(image).toBe(`data:image/png;base64,${btoa(String.fromCharCode(...PNG))}`);
    expect(call.messages[0].content).toContain("never instructions");
    const logged = await db()
      .select()
      .from(activityLog)
      .where(and(eq(activityLog.action, "read_bill")))
      .all();
    expect(logged.some((l) => (l.details as { contactId?: number })?.contactId === contact.id)).toBe(true);
  });

  it("never overwrites what a rep typed; fills only the blanks", async () => {
    const { contact, messageId } = await billPhotoFrom({ monthlyKwh: 900 });
    const key = await keyAnswering(READING);
    await readBillPhotos({ db: db(), bucket: env.MEDIA, ai: fakeOpenAiChain(key), now: new Date() }, [messageId]);
    expect(await contactRow(contact.id)).toMatchObject({ monthlyKwh: 900, monthlyBillCents: 18745 });
  });

  it("writes nothing offline, for a picture that is not a bill, or for an answer the schema refuses", async () => {
    const offline = await billPhotoFrom();
    expect(
      await readBillPhotos(
        { db: db(), bucket: env.MEDIA, ai: { providers: [createOfflineComposer()] }, now: new Date() },
        [offline.messageId],
      ),
    ).toEqual({ read: 0 });
    const dog = await billPhotoFrom();
    const notBill = await keyAnswering({ isBill: false });
    await readBillPhotos({ db: db(), bucket: env.MEDIA, ai: fakeOpenAiChain(notBill), now: new Date() }, [
      dog.messageId,
    ]);
    const bad = await billPhotoFrom();
    const malformed = await keyAnswering({ isBill: true, monthlyKwh: "lots", amountDollars: 1e9 });
    await readBillPhotos({ db: db(), bucket: env.MEDIA, ai: fakeOpenAiChain(malformed), now: new Date() }, [
      bad.messageId,
    ]);
    for (const c of [offline.contact, dog.contact, bad.contact])
      expect(await contactRow(c.id)).toMatchObject({ monthlyBillCents: null, monthlyKwh: null, utilityName: null });
  });
});
