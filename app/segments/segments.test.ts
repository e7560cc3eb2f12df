// Saved segments (issue 28 item 1, decision 075): each test of a definition against real D1 rows, the rules of saving
// and deleting one, a broadcast to a segment read when it is due (through the consumer to the fake Twilio), and the
// plans that keep its events O(rows touched).
import { eq, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { broadcasts, campaigns, contactTags, contacts, conversations, messages, segments } from "~/db/schema";
import { createTestUser, db, SEES_ALL } from "../../tests/factories";
import { createTestContact, uniqueTag } from "../../tests/contact-factory";
import { appHooks, DAYTIME, pipeline } from "../../tests/messaging-harness";
import { plan } from "../../tests/query-plan";
import { recordD1, measureD1 } from "../../tests/d1-recorder";
import { sendMessages } from "~/messaging/consume-send-batch.server";
import { broadcastSchema, sendBroadcast } from "~/messaging/send-broadcast.server";
import { resolveDueSegmentBroadcasts } from "~/messaging/resolve-segment-broadcasts.server";
import { dispatchDueMessages } from "~/messaging/enqueue-due-messages.server";
import { createCampaign } from "~/campaigns/create-campaign.server";
import { AppError } from "~/lib/app-error";
import { segmentDefinition, describeSegment, type SegmentDefinition } from "./segment-definition";
import { segmentForm } from "./segment-form";
import { previewSegment } from "./preview-segment.server";
import { saveSegment, SEGMENT_NAME_TAKEN } from "./save-segment.server";
import { deleteSegment } from "./delete-segment.server";
import { contactsStillIn, segmentStep } from "./segment-members.server";
import { segmentWhere } from "./segment-where.server";

const DAY = 86_400_000;
const def = (d: Partial<SegmentDefinition> & Record<string, unknown>) => segmentDefinition.parse(d);
const NOW = new Date("2026-11-20T18:00:00Z");

/** A contact carrying `tag` (the test's own, so rows of other tests never count) and these columns. */
async function tagged(tag: string, fields: Partial<typeof contacts.$inferInsert> = {}) {
  const owner = await createTestUser();
  const c = await createTestContact(owner.id, { firstName: "Sam" });
  if (Object.keys(fields).length) await db().update(contacts).set(fields).where(eq(contacts.id, c.id));
  await db().insert(contactTags).values({ contactId: c.id, tag, createdAt: NOW });
  return c;
}

/** The contact's conversation as the messages triggers keep it: its last message's time and last inbound. */
async function talked(contactId: number, lastAt: Date, opts: { inbound?: boolean; needsReply?: boolean } = {}) {
  await db()
    .insert(conversations)
    .values({
      key: `c:${contactId}`,
      contactId,
      lastMessageId: 1,
      lastMessageAt: lastAt,
      lastDirection: opts.inbound ? "inbound" : "outbound",
      lastPreview: "Hi",
      needsReply: opts.needsReply ?? false,
      lastInboundId: opts.inbound ? 1 : null,
    });
}

const members = async (d: SegmentDefinition) =>
  (await previewSegment(db(), d, SEES_ALL, { now: NOW, limit: 1000 })).contacts.map((c) => c.id).sort((a, b) => a - b);
const ids = (...cs: { id: number }[]) => cs.map((c) => c.id).sort((a, b) => a - b);

describe("a segment's tests, against real rows", () => {
  it("stage, tags and fields: “sat, not sold, in 94…”", async () => {
    const tag = uniqueTag("seg");
    const sat94 = await tagged(tag, { stage: "sat", zipCode: "94110" });
    await tagged(tag, { stage: "sold", zipCode: "94110" });
    await tagged(tag, { stage: "sat", zipCode: "10001" });
    const satBill = await tagged(tag, { stage: "sat", zipCode: "94105", billReceivedAt: NOW });
    const d = def({ tags: [tag], stages: ["sat"], fields: [{ field: "zipCode", op: "startsWith", value: "94" }] });
    expect(await members(d)).toEqual(ids(sat94, satBill));
    expect(await members({ ...d, bill: "received" })).toEqual(ids(satBill));
    expect(await members({ ...d, bill: "missing" })).toEqual(ids(sat94));
    // A LIKE wildcard typed as a value is matched as written.
    expect(await members(def({ tags: [tag], fields: [{ field: "zipCode", op: "startsWith", value: "9_" }] }))).toEqual(
      [],
    );
    const sum = await previewSegment(db(), d, SEES_ALL, { now: NOW });
    expect(sum.count).toBe(2);
  });

  it("last touch, reply state: “no message in 30 days” includes the never-texted; “has replied”", async () => {
    const tag = uniqueTag("seg");
    const quiet = await tagged(tag);
    await talked(quiet.id, new Date(NOW.getTime() - 45 * DAY), { inbound: true });
    const recent = await tagged(tag);
    await talked(recent.id, new Date(NOW.getTime() - 2 * DAY), { needsReply: true, inbound: true });
    const never = await tagged(tag);
    expect(await members(def({ tags: [tag], touch: { op: "none", days: 30 } }))).toEqual(ids(quiet, never));
    expect(await members(def({ tags: [tag], touch: { op: "within", days: 30 } }))).toEqual(ids(recent));
    expect(await members(def({ tags: [tag], reply: "replied" }))).toEqual(ids(quiet, recent));
    expect(await members(def({ tags: [tag], reply: "never" }))).toEqual(ids(never));
    expect(await members(def({ tags: [tag], reply: "waiting" }))).toEqual(ids(recent));
  });

  it("owner, consent: marketing, appointments only, opted out, on record", async () => {
    const tag = uniqueTag("seg");
    const rep = await createTestUser();
    const mine = await tagged(tag, { ownerUserId: rep.id, consentAt: NOW });
    const info = await tagged(tag, { consentPurpose: "informational", consentAt: null });
    const out = await tagged(tag, { optedOutAt: NOW, consentAt: null });
    expect(await members(def({ tags: [tag], owner: rep.id }))).toEqual(ids(mine));
    expect(await members(def({ tags: [tag], owner: "none" }))).toEqual(ids(info, out));
    expect(await members(def({ tags: [tag], consent: "marketing" }))).toEqual(ids(mine));
    expect(await members(def({ tags: [tag], consent: "informational" }))).toEqual(ids(info));
    expect(await members(def({ tags: [tag], consent: "optedOut" }))).toEqual(ids(out));
    expect(await members(def({ tags: [tag], consent: "recorded" }))).toEqual(ids(mine));
    expect(await members(def({ tags: [tag], consent: "missing" }))).toEqual(ids(info, out));
  });

  it("a standard user's preview holds their contacts and the unowned ones (decision 048)", async () => {
    const tag = uniqueTag("seg");
    const rep = await createTestUser();
    const other = await createTestUser();
    const theirs = await tagged(tag, { ownerUserId: rep.id });
    await tagged(tag, { ownerUserId: other.id });
    const unowned = await tagged(tag, { ownerUserId: null });
    const p = await previewSegment(db(), def({ tags: [tag] }), { userId: rep.id, role: "user" }, { now: NOW });
    expect(p.contacts.map((c) => c.id).sort((a, b) => a - b)).toEqual(ids(theirs, unowned));
    expect(p.count).toBe(2);
  });

  it("pages newest first by keyset", async () => {
    const tag = uniqueTag("seg");
    const made = [];
    for (let i = 0; i < 5; i++) made.push(await tagged(tag));
    const first = await previewSegment(db(), def({ tags: [tag] }), SEES_ALL, { now: NOW, limit: 2 });
    expect(first.contacts.map((c) => c.id)).toEqual([made[4].id, made[3].id]);
    const second = await previewSegment(db(), def({ tags: [tag] }), SEES_ALL, {
      now: NOW,
      limit: 2,
      after: first.nextCursor,
    });
    expect(second.contacts.map((c) => c.id)).toEqual([made[2].id, made[1].id]);
    // The count is the whole segment's on every page, not what lies past the cursor.
    expect([first.count, second.count]).toEqual([5, 5]);
    expect(second.contacts[0]).not.toHaveProperty("total");
    // A cursor past the last (the segment shrank since): no rows, and still the segment's size.
    const past = await previewSegment(db(), def({ tags: [tag] }), SEES_ALL, { now: NOW, after: made[0].id });
    expect(past).toMatchObject({ contacts: [], count: 5, nextCursor: null });
  });

  it("walks the contacts once per view, a segment nobody fits included", async () => {
    const restore = recordD1((await import("cloudflare:test")).env.DB);
    const { statements } = await measureD1(async () => {
      const empty = await previewSegment(db(), def({ tags: [uniqueTag("none")] }), SEES_ALL, { now: NOW });
      expect(empty).toMatchObject({ count: 0, contacts: [], nextCursor: null });
    }).finally(restore);
    expect(statements.filter((s) => /from "contacts"/i.test(s.sql))).toHaveLength(1);
  });

  it("reads in plain words", () => {
    const d = def({
      stages: ["sat"],
      tags: ["hoa"],
      touch: { op: "none", days: 30 },
      fields: [{ field: "zipCode", op: "startsWith", value: "94" }],
    });
    expect(describeSegment(d, { stage: () => "Sat", owner: () => "" })).toBe(
      "Stage Sat · Tagged “hoa” · no message in the last 30 days · ZIP code starts with “94”",
    );
  });
});

describe("the segment form", () => {
  const form = (f: Record<string, unknown>) => segmentForm.safeParse({ name: "Quiet", ...f });
  it("reads blank choices as any and refuses a bad value beside its field", () => {
    const ok = form({ stages: ["sat", "sat"], tags: "HOA, roof  replaced", touchOp: "none", touchDays: "30" });
    expect(ok.success && ok.data.definition).toMatchObject({
      stages: ["sat"],
      tags: ["hoa", "roof replaced"],
      touch: { op: "none", days: 30 },
      owner: null,
    });
    const days = form({ touchOp: "none", touchDays: "soon" });
    expect(!days.success && days.error.issues[0]).toMatchObject({ path: ["touchDays"] });
    const value = form({ field: ["zipCode"], op: ["startsWith"], value: [""] });
    expect(!value.success && value.error.issues[0]).toMatchObject({
      path: ["value"],
      message: "Enter the value to compare the field with",
    });
    const name = segmentForm.safeParse({ name: " " });
    expect(!name.success && name.error.issues[0]).toMatchObject({ path: ["name"], message: "Please enter a name" });
    const tags = form({ tags: "<b>" });
    expect(!tags.success && tags.error.issues[0].path).toEqual(["tags"]);
  });
});

describe("saving and deleting", () => {
  it("refuses a definition of nothing, an unknown stage or owner, a taken name (case-blind); its creator edits", async () => {
    const me = await createTestUser();
    const actor = { userId: me.id, role: "user" as const, ipAddress: null };
    const name = uniqueTag("Quiet ");
    const refuse = (p: Promise<unknown>) => expect(p).rejects.toBeInstanceOf(AppError);
    await refuse(saveSegment(db(), { name, definition: def({}) }, actor, NOW));
    await refuse(saveSegment(db(), { name, definition: def({ stages: ["no-such"] }) }, actor, NOW));
    await refuse(saveSegment(db(), { name, definition: def({ owner: 999_999_999 }) }, actor, NOW));
    const s = await saveSegment(db(), { name, definition: def({ stages: ["sat"] }) }, actor, NOW);
    await expect(
      saveSegment(db(), { name: name.toUpperCase(), definition: def({ stages: ["new"] }) }, actor, NOW),
    ).rejects.toThrow(SEGMENT_NAME_TAKEN);
    const other = await createTestUser();
    await expect(
      saveSegment(
        db(),
        { id: s.id, name, definition: def({ stages: ["new"] }) },
        { userId: other.id, role: "user", ipAddress: null },
        NOW,
      ),
    ).rejects.toMatchObject({ code: "forbidden" });
    await saveSegment(db(), { id: s.id, name, definition: def({ stages: ["new"] }) }, actor, NOW);
    const { definition } = (await db().select().from(segments).where(eq(segments.id, s.id)).get())!;
    expect(JSON.parse(definition).stages).toEqual(["new"]);
  });

  it("is kept while a campaign sends to it; then goes", async () => {
    const me = await createTestUser();
    const actor = { userId: me.id, role: "superuser" as const, ipAddress: null };
    const s = await saveSegment(db(), { name: uniqueTag("Seg "), definition: def({ stages: ["sat"] }) }, actor, NOW);
    const c = await createCampaign(db(), { name: "Re-engage", segmentId: s.id }, actor, NOW);
    await expect(deleteSegment(db(), s.id, actor, NOW)).rejects.toMatchObject({ code: "conflict" });
    await db().update(campaigns).set({ status: "completed" }).where(eq(campaigns.id, c.id));
    await deleteSegment(db(), s.id, actor, NOW);
    expect((await db().select().from(campaigns).where(eq(campaigns.id, c.id)).get())?.segmentId).toBeNull();
  });
});

describe("a broadcast to a segment, read when it is due", () => {
  it("writes nothing until its time; then texts whoever fits then (through the consumer to the fake Twilio)", async () => {
    const tag = uniqueTag("seg");
    const me = await createTestUser();
    const actor = { userId: me.id, role: "superuser" as const, ipAddress: null };
    const early = await tagged(tag, { stage: "sat" });
    const leaves = await tagged(tag, { stage: "sat" });
    const s = await saveSegment(
      db(),
      { name: uniqueTag("Sat "), definition: def({ tags: [tag], stages: ["sat"] }) },
      actor,
      NOW,
    );
    const { deps, twilio, queue } = await pipeline({ clock: () => DAYTIME });
    const at = new Date(DAYTIME.getTime() + DAY);
    const b = await sendBroadcast(
      { db: db(), queue, now: DAYTIME, hooks: appHooks },
      {
        type: "sms",
        content: "Hi {{firstName}}, still thinking about solar?",
        segmentId: s.id,
        scheduledAt: at.toISOString(),
      },
      actor,
    );
    expect(b).toMatchObject({ recipients: 0, scheduledAt: at.toISOString() });
    expect(await db().select().from(messages).where(eq(messages.broadcastId, b.broadcastId))).toHaveLength(0);
    // Before it is due, the segment changes: one joins, one leaves.
    const joins = await tagged(tag, { stage: "sat" });
    await db().update(contacts).set({ stage: "sold" }).where(eq(contacts.id, leaves.id));
    expect(await resolveDueSegmentBroadcasts({ db: db(), now: DAYTIME })).toMatchObject({ written: 0 });
    // Due: resolved in steps of 1 contact id range each (span 2), resumable; then the pipeline sends.
    const r = await resolveDueSegmentBroadcasts({ db: db(), now: at }, { only: b.broadcastId, span: 2 });
    expect(r).toMatchObject({ broadcasts: 1, written: 2, more: false });
    const row = (await db().select().from(broadcasts).where(eq(broadcasts.id, b.broadcastId)).get())!;
    expect(row.recipientCount).toBe(2);
    expect(row.resolvedAt).not.toBeNull();
    // Running again writes nothing twice.
    expect(await resolveDueSegmentBroadcasts({ db: db(), now: at }, { only: b.broadcastId })).toMatchObject({
      broadcasts: 0,
    });
    await dispatchDueMessages(db(), queue, at);
    await sendMessages(queue.takeSendJobs(), { ...deps, clock: () => at });
    const sent = (await twilio.calls()).map((c) => c.to as string).sort();
    expect(sent).toEqual([early.phone, joins.phone].sort());
  });

  it("“now” reads the segment in the request and queues it; a contact lacking a variable is left out", async () => {
    const tag = uniqueTag("seg");
    const me = await createTestUser();
    const actor = { userId: me.id, role: "superuser" as const, ipAddress: null };
    const withCity = await tagged(tag, { city: "Fresno" });
    await tagged(tag, { city: null });
    const s = await saveSegment(db(), { name: uniqueTag("City "), definition: def({ tags: [tag] }) }, actor, NOW);
    const { deps, twilio, queue } = await pipeline({ clock: () => DAYTIME });
    const b = await sendBroadcast(
      { db: db(), queue, now: DAYTIME, hooks: appHooks },
      { type: "sms", content: "Solar in {{city}}?", segmentId: s.id },
      actor,
    );
    expect(b).toMatchObject({ recipients: 1, resolved: true });
    await sendMessages(queue.takeSendJobs(), deps);
    expect((await twilio.calls()).map((c) => [c.to, c.body])).toEqual([[withCity.phone, "Solar in Fresno?"]]);
  });

  it("refuses picked contacts and a segment together, and a segment that is gone", async () => {
    const me = await createTestUser();
    const actor = { userId: me.id, role: "superuser" as const, ipAddress: null };
    const { queue } = await pipeline({ clock: () => DAYTIME });
    const both = broadcastSchema.safeParse({ content: "Hi", contactIds: [1], segmentId: 1 });
    expect(!both.success && both.error.issues[0].message).toBe("Choose picked contacts or a segment, not both");
    const none = broadcastSchema.safeParse({ content: "Hi" });
    expect(!none.success && none.error.issues[0].message).toBe("Please select at least one contact");
    const send = (input: Record<string, unknown>) =>
      sendBroadcast(
        { db: db(), queue, now: DAYTIME, hooks: appHooks },
        { type: "sms", content: "Hi", ...input } as never,
        actor,
      );
    await expect(send({ segmentId: 999_999_999 })).rejects.toMatchObject({ code: "validation" });
  });
});

describe("plans: a segment's events read the rows they touch", () => {
  it("the tick's due read is the partial index; the stay check seeks contacts by key; a step reads one id range", async () => {
    const due = await plan(
      sql`SELECT id FROM broadcasts WHERE segment_id IS NOT NULL AND resolved_at IS NULL AND scheduled_at <= 0 ORDER BY scheduled_at LIMIT 5`,
    );
    expect(due).toContain("broadcasts_segment_due_idx");
    const d = def({ stages: ["sat"], touch: { op: "none", days: 30 }, tags: ["hoa"] });
    const stay = await plan(
      sql`SELECT id FROM contacts WHERE ${contacts.id} IN (SELECT value FROM json_each('[1,2]')) AND ${segmentWhere(d, NOW)}`,
    );
    // By key: the primary key, or the stage index's (stage, id) pair.
    expect(stay).toMatch(
      /SEARCH contacts USING (INTEGER PRIMARY KEY|COVERING INDEX contacts_stage_idx \(stage=\? AND id=\?)/,
    );
    expect(stay).not.toMatch(/SCAN contacts\b/);
    const step = segmentStep(db(), d, { kind: "all" }, 1000, NOW);
    const p = await plan(sql`SELECT id FROM contacts WHERE ${step.members}`);
    expect(p).toMatch(/SEARCH contacts USING INTEGER PRIMARY KEY \(rowid<\?\)/);
  });

  it("the dispatcher's stay check reads the due contacts by key, however many contacts exist", async () => {
    const tag = uniqueTag("seg");
    const a = await tagged(tag, { stage: "sat" });
    const b = await tagged(tag, { stage: "sold" });
    const restore = recordD1((await import("cloudflare:test")).env.DB);
    let stay = new Set<number>();
    const { read } = await measureD1(async () => {
      stay = await contactsStillIn(db(), def({ stages: ["sat"], touch: { op: "none", days: 1 } }), [a.id, b.id], NOW);
    }).finally(restore);
    expect([...stay]).toEqual([a.id]);
    // Two contacts by key (and the json_each rows): a scan would read every contact in the shared database.
    expect(read).toBeLessThanOrEqual(6);
  });
});
