import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { addCampaignStep } from "~/campaigns/add-campaign-step.server";
import { checkStep, stepSchema } from "~/campaigns/campaign-schema";
import { createCampaign } from "~/campaigns/create-campaign.server";
import { createSequenceTrigger } from "~/campaigns/manage-sequence-triggers.server";
import { startCampaign } from "~/campaigns/start-campaign.server";
import { campaignEnrollments, campaigns, campaignSteps, linkClicks, messages, orgSettings } from "~/db/schema";
import { onLinkClicked } from "~/wiring/link-click-hooks.server";
import { createTestContact, uniqueTag } from "../../tests/contact-factory";
import { call, createTestUser, db, loginAs, signedIn } from "../../tests/factories";
import { appHooks, DAYTIME, messageRow, pipeline, queueMessage, recordingQueue } from "../../tests/messaging-harness";
import { sendMessages } from "./consume-send-batch.server";
import { linkClicksOfQuery, listMessages } from "~/message-center/list-messages.server";
import { plan } from "../../tests/query-plan";
import { contactLinkClicksFrom, contactLinkClicksQuery } from "./list-contact-link-clicks.server";
import { MIN_RETENTION_MONTHS, RETENTION_KEY } from "./org-settings.server";
import { archiveOldMessages, retentionCutoff } from "./archive-old-messages.server";
import { env } from "cloudflare:test";
import { reconcileMessages, STUCK_SENDING_MS } from "./reconcile-messages.server";
import {
  findLinks,
  isBotUserAgent,
  isSentTextOf,
  LINK_DOMAIN_KEY,
  LINK_TRACKING_OFF_KEY,
  linkBaseFrom,
  MAX_TRACKED_LINKS,
  parseLinkCode,
  trackableLinks,
  withTrackedLinks,
} from "./tracked-links";
import { linkCode, linkSigner, trackLinks, verifyLinkCode } from "./tracked-links.server";

const SECRET = "test-session-secret";
const PHONE_BROWSER = "Mozilla/5.0 (iPhone; CPU iPhone OS 18_0 like Mac OS X) AppleWebKit/605.1.15 Mobile/15E148";
const codeIn = (body: string) => /\/l\/([A-Za-z0-9_-]+)/.exec(body)?.[1] ?? null;
const codesIn = (body: string) => [...body.matchAll(/\/l\/([A-Za-z0-9_-]+)/g)].map((m) => m[1]);
const click = (code: string, userAgent: string | null = PHONE_BROWSER, method = "GET") =>
  call(`/l/${code}`, { method, headers: userAgent ? { "User-Agent": userAgent } : {} });

describe("tracked links: which links, which codes (decision 068)", () => {
  it("finds http(s) links and leaves the sentence's punctuation and brackets out", () => {
    const text =
      "Quote: https://sun.example/q/42. (Or https://sun.example/faq) See https://x.example/a_(b) and www.no-scheme.example!";
    expect(findLinks(text).map((l) => l.url)).toEqual([
      "https://sun.example/q/42",
      "https://sun.example/faq",
      "https://x.example/a_(b)",
    ]);
    expect(findLinks("ftp://files.example/x mailto:a@b.example http:// nothing")).toEqual([]);
    for (const l of findLinks(text)) expect(text.slice(l.start, l.end)).toBe(l.url);
  });

  it("tracks at most five links of a text and none longer than 2,048 characters", () => {
    const many = Array.from({ length: 7 }, (_, i) => `https://sun.example/${i}`).join(" ");
    expect(trackableLinks(many)).toHaveLength(MAX_TRACKED_LINKS);
    expect(trackableLinks(`https://sun.example/${"a".repeat(2100)}`)).toEqual([]);
  });

  it("a code names its message and link, and a changed id, link number or signature is refused", async () => {
    const sign = await linkSigner(SECRET);
    const code = await linkCode(sign, 5_000_123, 3);
    expect(parseLinkCode(code)).toMatchObject({ messageId: 5_000_123, index: 3 });
    expect(await verifyLinkCode(sign, code)).toEqual({ messageId: 5_000_123, index: 3 });
    const other = await linkCode(sign, 5_000_124, 3);
    // Another message's signature on this id, another link number, another secret, junk.
    expect(await verifyLinkCode(sign, code.slice(0, -10) + other.slice(-10))).toBeNull();
    expect(await verifyLinkCode(sign, code.replace(/3(.{10})$/, "2$1"))).toBeNull();
    expect(await verifyLinkCode(await linkSigner("another-secret"), code)).toBeNull();
    for (const junk of ["", "abc", "0" + "A".repeat(10), "../../etc", `${code}x`])
      expect(await verifyLinkCode(sign, junk)).toBeNull();
  });

  it("rewrites the links in place, the same every time, and the reconciler recognises the result", async () => {
    const sign = await linkSigner(SECRET);
    const text = "Hi Rosa, your quote https://sun.example/q/42?x=1, and our reviews: https://sun.example/reviews.";
    const wire = await trackLinks(text, "https://go.sun.example", sign, 77);
    expect(wire).toMatch(
      /^Hi Rosa, your quote https:\/\/go\.sun\.example\/l\/\S+, and our reviews: https:\/\/go\.sun\.example\/l\/\S+\.$/,
    );
    expect(await trackLinks(text, "https://go.sun.example", sign, 77)).toBe(wire);
    expect(isSentTextOf(wire, text, 77)).toBe(true);
    expect(isSentTextOf(text, text, 77)).toBe(true);
    expect(isSentTextOf(await trackLinks(text, "https://go.sun.example", sign, 78), text, 77)).toBe(false);
    expect(isSentTextOf(wire.replace("our reviews", "reviews"), text, 77)).toBe(false);
    // The pre-send segment count sees a text at least as long as the one that goes.
    expect(withTrackedLinks(text, "https://go.sun.example").length).toBeGreaterThanOrEqual(wire.length);
  });

  it("points at the link domain when one is set, Helio's address otherwise, nowhere when off or unknown", () => {
    expect(linkBaseFrom([], "https://helio.test/")).toBe("https://helio.test");
    expect(linkBaseFrom([{ key: LINK_DOMAIN_KEY, value: "go.sun.example" }], "https://helio.test")).toBe(
      "https://go.sun.example",
    );
    expect(linkBaseFrom([{ key: LINK_TRACKING_OFF_KEY, value: "1" }], "https://helio.test")).toBeNull();
    expect(linkBaseFrom([], "")).toBeNull();
  });

  it("link previews, crawlers and scripts are not people", () => {
    for (const ua of [
      null,
      "facebookexternalhit/1.1 Facebot Twitterbot/1.0", // iMessage's preview
      "WhatsApp/2.23.20.0",
      "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)",
      "curl/8.4.0",
    ])
      expect(isBotUserAgent(ua)).toBe(true);
    expect(isBotUserAgent(PHONE_BROWSER)).toBe(false);
  });
});

/** A running campaign with one SMS step carrying two links, and a contact's step message sent through Twilio. */
async function sentCampaignText(opts: { content?: string } = {}) {
  const { deps, twilio, queue } = await pipeline({ clock: () => DAYTIME });
  const user = await createTestUser();
  const actor = { userId: user.id, role: "superuser" as const, ipAddress: null };
  const c = await createCampaign(db(), { name: uniqueTag("Links ") }, actor, DAYTIME);
  const content =
    opts.content ??
    "Hi {{firstName}}, your quote: https://sun.example/q/{{firstName}} or call us. https://sun.example/reviews";
  const step = await addCampaignStep(db(), c.id, checkStep(stepSchema.parse({ name: "Quote", content })), DAYTIME);
  const contact = await createTestContact(user.id, { firstName: "Rosa", state: "AZ" });
  // Running (a paused or draft campaign's texts are held); its audience is this one step message.
  await db().update(campaigns).set({ status: "running" }).where(eq(campaigns.id, c.id));
  const id = (await queueMessage(
    deps,
    queue,
    { kind: "campaign", contactId: contact.id, phone: contact.phone, campaignId: c.id, stepId: step.id, content },
    DAYTIME,
    appHooks,
  ))!;
  await sendMessages(queue.takeSendJobs(), deps);
  const [sent] = await twilio.calls();
  if (!sent) throw new Error(`not sent: ${JSON.stringify(await messageRow(id))}`);
  return { deps, twilio, user, actor, campaignId: c.id, stepId: step.id, contact, id, body: sent.body as string };
}

describe("tracked links: sent, clicked, counted", () => {
  it("the screens' reads of clicks seek their indexes, never scan link_clicks", async () => {
    const center = await plan(linkClicksOfQuery(db(), [1, 2, 3]).getSQL());
    expect(center).toMatch(/USING (COVERING )?INDEX link_clicks_message_uq/);
    expect(center).not.toMatch(/SCAN link_clicks\b(?! USING)/);
    const contact = await plan(contactLinkClicksQuery(db(), 1).getSQL());
    expect(contact).toMatch(/SEARCH link_clicks USING INDEX link_clicks_contact_idx/);
  });

  it("the text goes out with one code per link; the message keeps its real links", async () => {
    const w = await sentCampaignText();
    const codes = codesIn(w.body);
    expect(codes).toHaveLength(2);
    expect(w.body).toBe(
      `Hi Rosa, your quote: https://helio.test/l/${codes[0]} or call us. https://helio.test/l/${codes[1]}`,
    );
    const row = await messageRow(w.id);
    expect(row).toMatchObject({
      status: "sent",
      content: "Hi Rosa, your quote: https://sun.example/q/Rosa or call us. https://sun.example/reviews",
    });
    // Counted as it went: the segments of the text Twilio got.
    expect(row?.segments).toBe(1);
  });

  it("a click redirects once to the message's own link and counts; the first click counts on the step and campaign", async () => {
    const w = await sentCampaignText();
    const [quote, reviews] = codesIn(w.body);
    const res = await click(quote);
    expect(res.status).toBe(302);
    expect(res.headers.get("Location")).toBe("https://sun.example/q/Rosa");
    expect(res.headers.get("Referrer-Policy")).toBe("no-referrer");
    expect((await click(reviews)).headers.get("Location")).toBe("https://sun.example/reviews");
    await click(quote);
    const rows = await db()
      .select({ index: linkClicks.linkIndex, clicks: linkClicks.clicks, contactId: linkClicks.contactId })
      .from(linkClicks)
      .where(eq(linkClicks.messageId, w.id))
      .orderBy(linkClicks.linkIndex);
    expect(rows).toEqual([
      { index: 0, clicks: 2, contactId: w.contact.id },
      { index: 1, clicks: 1, contactId: w.contact.id },
    ]);
    // Two links first clicked: the counters count each once, however often it is opened.
    const [c] = await db().select({ n: campaigns.clickCount }).from(campaigns).where(eq(campaigns.id, w.campaignId));
    const [s] = await db()
      .select({ n: campaignSteps.clickCount })
      .from(campaignSteps)
      .where(eq(campaignSteps.id, w.stepId));
    expect([c.n, s.n]).toEqual([2, 2]);
    // The contact page lists the links the contact opened, last opened first.
    expect(
      contactLinkClicksFrom(await contactLinkClicksQuery(db(), w.contact.id)).map((l) => [l.url, l.clicks]),
    ).toEqual(
      expect.arrayContaining([
        ["https://sun.example/q/Rosa", 2],
        ["https://sun.example/reviews", 1],
      ]),
    );
    const page = await call(`/contacts/${w.contact.id}`, { cookie: await loginAs(w.user) });
    const html = await page.text();
    expect(html).toContain("Links opened");
    expect(html).toContain("https://sun.example/q/Rosa");
    // The Message Center shows the message's clicks, every one (one grouped read for the page).
    const center = await listMessages(db(), { viewer: { userId: w.user.id, role: "superuser" }, q: "sun.example" });
    expect(center.messages.find((m) => m.id === w.id)?.linkClicks).toBe(3);
  });

  it("previews, HEAD requests and a signed-in teammate are redirected but not counted", async () => {
    const w = await sentCampaignText();
    const code = codeIn(w.body)!;
    expect((await click(code, "facebookexternalhit/1.1 Facebot Twitterbot/1.0")).status).toBe(302);
    expect((await click(code, PHONE_BROWSER, "HEAD")).status).toBe(302);
    const { cookie } = await signedIn();
    const teammate = await call(`/l/${code}`, { headers: { "User-Agent": PHONE_BROWSER }, cookie });
    expect(teammate.status).toBe(302);
    expect(await db().select().from(linkClicks).where(eq(linkClicks.messageId, w.id))).toEqual([]);
  });

  it("never redirects anywhere else: a forged or altered code is a 404, a message no longer held a 410", async () => {
    const w = await sentCampaignText();
    const code = codeIn(w.body)!;
    const forged = await linkCode(await linkSigner("another-secret"), w.id, 0);
    for (const bad of [
      forged,
      code.slice(0, -1) + (code.endsWith("A") ? "B" : "A"),
      "https%3A%2F%2Fevil.example",
      "x",
    ]) {
      const res = await click(bad);
      expect(res.status).toBe(404);
      expect(res.headers.get("Location")).toBeNull();
    }
    // A valid code for a link the message does not have (the signature is real, the place is not).
    expect((await click(await linkCode(await linkSigner(SECRET), w.id, 4))).status).toBe(410);
    await db().delete(messages).where(eq(messages.id, w.id));
    const gone = await click(code);
    expect(gone.status).toBe(410);
    expect(await gone.text()).toBe("This link has expired.");
  });

  it("keeps working 30 days on: the shortest retention keeps a message three months", async () => {
    const w = await sentCampaignText();
    const monthAgo = new Date(Date.now() - 31 * 86_400_000);
    await db().update(messages).set({ createdAt: monthAgo, sentAt: monthAgo }).where(eq(messages.id, w.id));
    expect(retentionCutoff(new Date(), MIN_RETENTION_MONTHS)).toBeLessThan(monthAgo.getTime());
    // The archive runs at the shortest retention a superuser can set, and the month-old text stays to answer its link.
    await db()
      .insert(orgSettings)
      .values({ key: RETENTION_KEY, value: String(MIN_RETENTION_MONTHS), updatedAt: new Date() })
      .onConflictDoUpdate({ target: orgSettings.key, set: { value: String(MIN_RETENTION_MONTHS) } });
    try {
      await archiveOldMessages(db(), env.ARCHIVE, new Date());
    } finally {
      await db().delete(orgSettings).where(eq(orgSettings.key, RETENTION_KEY));
    }
    expect(await messageRow(w.id)).toBeDefined();
    expect((await click(codeIn(w.body)!)).headers.get("Location")).toBe("https://sun.example/q/Rosa");
  });

  it("goes as written when tracking is off, for tests, and to the link domain when one is set", async () => {
    await db().insert(orgSettings).values({ key: LINK_TRACKING_OFF_KEY, value: "1", updatedAt: new Date() });
    try {
      const off = await sentCampaignText();
      expect(off.body).toBe("Hi Rosa, your quote: https://sun.example/q/Rosa or call us. https://sun.example/reviews");
    } finally {
      await db().delete(orgSettings).where(eq(orgSettings.key, LINK_TRACKING_OFF_KEY));
    }
    const { deps, twilio, queue } = await pipeline({ clock: () => DAYTIME });
    await queueMessage(deps, queue, { kind: "test", content: "Test: https://sun.example/q" }, DAYTIME);
    await sendMessages(queue.takeSendJobs(), deps);
    expect((await twilio.calls())[0].body).toBe("Test: https://sun.example/q");

    await db().insert(orgSettings).values({ key: LINK_DOMAIN_KEY, value: "go.sun.example", updatedAt: new Date() });
    try {
      const branded = await sentCampaignText();
      expect(branded.body).toMatch(/^Hi Rosa, your quote: https:\/\/go\.sun\.example\/l\/\S+ or call us\./);
    } finally {
      await db().delete(orgSettings).where(eq(orgSettings.key, LINK_DOMAIN_KEY));
    }
  });

  it("the reconciler finds a tracked text Twilio has under its codes and records it instead of sending again", async () => {
    const w = await sentCampaignText();
    const [sent] = await w.twilio.calls();
    // The consumer died after Twilio accepted the text: the row is still `sending`, claimed long ago.
    await db()
      .update(messages)
      .set({ status: "sending", twilioSid: null, claimedAt: new Date(Date.now() - STUCK_SENDING_MS - 60_000) })
      .where(eq(messages.id, w.id));
    const queue = recordingQueue();
    const r = await reconcileMessages(db(), queue, w.deps.sms, new Date());
    expect(r).toMatchObject({ recovered: 1, requeued: 0 });
    expect(await messageRow(w.id)).toMatchObject({ status: "sent", twilio_sid: sent.sid });
  });

  it("a first click starts the sequences whose rule names that campaign (or any) and tells the owner", async () => {
    const w = await sentCampaignText();
    const queue = recordingQueue();
    async function ruleSequence(clickedIn: number | undefined) {
      const seq = await createCampaign(db(), { name: uniqueTag("After click ") }, w.actor, DAYTIME);
      await addCampaignStep(
        db(),
        seq.id,
        checkStep(stepSchema.parse({ name: "Hi", content: "Saw you looked!" })),
        DAYTIME,
      );
      await createSequenceTrigger(
        db(),
        { name: uniqueTag("Click rule "), source: null, campaignId: seq.id, on: "link.clicked", clickedIn },
        w.actor,
        DAYTIME,
      );
      await startCampaign(db(), queue, seq.id, w.actor, DAYTIME);
      return seq.id;
    }
    const forThis = await ruleSequence(w.campaignId);
    const forOther = await ruleSequence(await ruleOtherCampaign(w.actor));
    await click(codeIn(w.body)!);
    const [row] = await db().select({ id: linkClicks.id }).from(linkClicks).where(eq(linkClicks.messageId, w.id));
    await onLinkClicked({ db: db(), queue, now: new Date() }, [row.id]);
    const enrolled = async (campaignId: number) =>
      (
        await db()
          .select({ id: campaignEnrollments.id })
          .from(campaignEnrollments)
          .where(and(eq(campaignEnrollments.campaignId, campaignId), eq(campaignEnrollments.contactId, w.contact.id)))
      ).length;
    expect(await enrolled(forThis)).toBe(1);
    expect(await enrolled(forOther)).toBe(0);
    expect(queue.sent).toContainEqual({ v: 1, type: "push", event: { kind: "link-click", clickId: row.id } });
  });
});

async function ruleOtherCampaign(actor: { userId: number; role: "superuser"; ipAddress: null }) {
  return (await createCampaign(db(), { name: uniqueTag("Other ") }, actor, DAYTIME)).id;
}
