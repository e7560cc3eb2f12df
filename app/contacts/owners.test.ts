import { eq, inArray, sql } from "drizzle-orm";
import { beforeEach, describe, expect, it } from "vitest";
import { activityLog, contacts, users } from "~/db/schema";
import { receiveInboundSms } from "~/messaging/receive-inbound.server";
import { variableValues } from "~/messaging/variable-values";
import { updateUser } from "~/users/manage-users.server";
import { seedContacts, uniquePhone } from "../../tests/contact-factory";
import { createTestUser, db } from "../../tests/factories";
import { recordingQueue, runInboundJob } from "../../tests/messaging-harness";
import { assignNewLeads } from "./assign-new-leads.server";
import { ingestLeads } from "./ingest-leads.server";
import { stageContactImport } from "./stage-contact-import.server";
import { startContactImport, type FileOwner } from "./start-contact-import.server";
import { setContactOwner } from "./set-contact-owner.server";

const NOW = new Date("2026-11-27T15:00:00Z");

/** Only the users a test makes take leads: everyone else (other tests' users) is away. */
async function onlyTheseAvailable(n: number) {
  await db().update(users).set({ availableForLeads: false });
  const reps = [];
  for (let i = 0; i < n; i++) reps.push(await createTestUser({ firstName: `Rep${i}` }));
  return reps;
}

async function inbound(phone: string, sid: string) {
  const res = await receiveInboundSms(
    db(),
    recordingQueue(),
    { from: phone, to: "+15005550006", body: "Hi", sid },
    NOW,
  );
  const row = await db().get<{ id: number }>(sql`SELECT id FROM messages WHERE twilio_sid = ${sid}`);
  expect(row, JSON.stringify(res)).toBeTruthy();
  return row!.id;
}

describe("round-robin assignment of new leads (decision 044)", () => {
  beforeEach(async () => {
    await db().run(sql`UPDATE assignment_cursor SET last_user_id = 0`);
  });

  it("100 concurrent new conversations over 4 available reps: 25 ± 1 each, none assigned twice", async () => {
    const reps = await onlyTheseAvailable(4);
    // Away and inactive users never get a lead.
    const away = await createTestUser();
    await db().update(users).set({ availableForLeads: false }).where(eq(users.id, away.id));
    const inactive = await createTestUser({ isActive: false });
    const leads = await seedContacts(100);
    const ids: number[] = [];
    for (const [i, c] of leads.entries()) ids.push(await inbound(c.phone, `SMfair${i}-${crypto.randomUUID()}`));

    // Every inbound job at once, and each delivered twice (a redelivery must not take a second turn).
    const results = await Promise.all([...ids, ...ids].map((id) => runInboundJob(db(), [id], NOW)));
    expect(results).toHaveLength(200);

    const owned = await db()
      .select({ id: contacts.id, owner: contacts.ownerUserId })
      .from(contacts)
      .where(
        inArray(
          contacts.id,
          leads.map((c) => c.id),
        ),
      );
    const per = new Map<number | null, number>();
    for (const c of owned) per.set(c.owner, (per.get(c.owner) ?? 0) + 1);
    expect(per.get(null) ?? 0).toBe(0);
    for (const r of reps) expect(Math.abs((per.get(r.id) ?? 0) - 25), JSON.stringify([...per])).toBeLessThanOrEqual(1);
    expect(per.get(away.id) ?? 0).toBe(0);
    expect(per.get(inactive.id) ?? 0).toBe(0);
    // The turns taken add up to the leads: no contact moved twice.
    expect([...per.values()].reduce((a, b) => a + b, 0)).toBe(100);
  });

  it("keeps the owner a contact already has, and a second reply moves nothing", async () => {
    const [a, b] = await onlyTheseAvailable(2);
    const [mine, fresh] = await seedContacts(2);
    await db().update(contacts).set({ ownerUserId: b.id }).where(eq(contacts.id, mine.id));
    const m1 = await inbound(mine.phone, `SMkeep-${crypto.randomUUID()}`);
    const m2 = await inbound(fresh.phone, `SMkeep-${crypto.randomUUID()}`);
    expect(await assignNewLeads(db(), [m1, m2], NOW)).toEqual([{ contactId: fresh.id, ownerUserId: a.id }]);
    const m3 = await inbound(fresh.phone, `SMkeep-${crypto.randomUUID()}`);
    expect(await assignNewLeads(db(), [m3], NOW)).toEqual([]);
    const row = await db().select().from(contacts).where(eq(contacts.id, mine.id)).get();
    expect(row?.ownerUserId).toBe(b.id);
  });

  it("leaves the lead unassigned when nobody is available", async () => {
    await onlyTheseAvailable(0);
    const [lead] = await seedContacts(1);
    const id = await inbound(lead.phone, `SMnone-${crypto.randomUUID()}`);
    expect(await assignNewLeads(db(), [id], NOW)).toEqual([]);
    const row = await db().select().from(contacts).where(eq(contacts.id, lead.id)).get();
    expect(row?.ownerUserId).toBeNull();
  });
});

describe("setting an owner by hand and in bulk (decision 044)", () => {
  it("a superuser sets any active user; the note is in the activity log", async () => {
    const boss = await createTestUser({ role: "superuser" });
    const closer = await createTestUser();
    const leads = await seedContacts(3);
    const res = await setContactOwner(
      db(),
      { contactIds: leads.map((c) => c.id), ownerUserId: closer.id, note: "Setter → closer: booked Tuesday" },
      { userId: boss.id, ipAddress: null, role: "superuser" },
      NOW,
    );
    expect(res).toEqual({ changed: 3, unchanged: 0 });
    const entry = await db()
      .select()
      .from(activityLog)
      .where(eq(activityLog.userId, boss.id))
      .orderBy(sql`${activityLog.id} DESC`)
      .get();
    expect(entry?.action).toBe("set_contact_owner");
    expect(entry?.details).toMatchObject({
      ownerUserId: closer.id,
      changed: 3,
      note: "Setter → closer: booked Tuesday",
    });
  });

  it("a standard user takes, clears or hands on only unowned or own contacts; never takes another's", async () => {
    const rep = await createTestUser();
    const other = await createTestUser();
    const [free, theirs, handed] = await seedContacts(3);
    await db().update(contacts).set({ ownerUserId: other.id }).where(eq(contacts.id, theirs.id));
    await db().update(contacts).set({ ownerUserId: rep.id }).where(eq(contacts.id, handed.id));
    const actor = { userId: rep.id, ipAddress: null, role: "user" as const };
    // The setter → closer hand-off: the rep's own contact goes to a teammate.
    expect(
      await setContactOwner(db(), { contactIds: [handed.id], ownerUserId: other.id, note: "Sat" }, actor, NOW),
    ).toEqual({ changed: 1, unchanged: 0 });
    // Another's contact is not the rep's to give or take: the WHERE leaves it.
    const mover = await createTestUser();
    expect(await setContactOwner(db(), { contactIds: [theirs.id], ownerUserId: mover.id }, actor, NOW)).toEqual({
      changed: 0,
      unchanged: 1,
    });
    const res = await setContactOwner(db(), { contactIds: [free.id, theirs.id], ownerUserId: rep.id }, actor, NOW);
    expect(res).toEqual({ changed: 1, unchanged: 1 });
    const rows = await db()
      .select({ id: contacts.id, owner: contacts.ownerUserId })
      .from(contacts)
      .where(inArray(contacts.id, [free.id, theirs.id]))
      .orderBy(contacts.id);
    expect(rows.map((r) => r.owner)).toEqual([rep.id, other.id]);
    const handedTo = await db().select({ o: contacts.ownerUserId }).from(contacts).where(eq(contacts.id, handed.id));
    expect(handedTo[0].o).toBe(other.id);
    expect(await setContactOwner(db(), { contactIds: [free.id], ownerUserId: null }, actor, NOW)).toEqual({
      changed: 1,
      unchanged: 0,
    });
  });

  it("refuses an inactive owner", async () => {
    const boss = await createTestUser({ role: "superuser" });
    const gone = await createTestUser({ isActive: false });
    const [lead] = await seedContacts(1);
    await expect(
      setContactOwner(
        db(),
        { contactIds: [lead.id], ownerUserId: gone.id },
        { userId: boss.id, ipAddress: null, role: "superuser" },
        NOW,
      ),
    ).rejects.toMatchObject({ code: "validation" });
  });
});

describe("deactivating a user hands their contacts over (decision 044)", () => {
  it("asks for someone when they own contacts, then moves them all in one batch", async () => {
    const boss = await createTestUser({ role: "superuser" });
    const leaving = await createTestUser();
    const taker = await createTestUser();
    const leads = await seedContacts(5);
    await db()
      .update(contacts)
      .set({ ownerUserId: leaving.id })
      .where(
        inArray(
          contacts.id,
          leads.map((c) => c.id),
        ),
      );
    const actor = { userId: boss.id, ipAddress: null };
    await expect(updateUser(db(), leaving.id, { isActive: false }, actor, NOW)).rejects.toMatchObject({
      code: "validation",
      field: "handOffTo",
    });
    await expect(
      updateUser(db(), leaving.id, { isActive: false, handOffTo: leaving.id }, actor, NOW),
    ).rejects.toMatchObject({ code: "validation" });
    await updateUser(db(), leaving.id, { isActive: false, handOffTo: taker.id }, actor, NOW);
    const owners = await db()
      .select({ owner: contacts.ownerUserId })
      .from(contacts)
      .where(
        inArray(
          contacts.id,
          leads.map((c) => c.id),
        ),
      );
    expect(owners.every((o) => o.owner === taker.id)).toBe(true);
    const row = await db().select().from(users).where(eq(users.id, leaving.id)).get();
    expect(row?.isActive).toBe(false);
  });
});

describe("{{salesRep…}} come from the owner (decision 044)", () => {
  it("uses the owner when the contact has one, else the sender", () => {
    const sender = { firstName: "Sam", lastName: "Sender", email: "sam@helio.example", phone: "+15550000001" };
    const owner = { firstName: "Olive", lastName: "Owner", email: "olive@helio.example", phone: "+15550000002" };
    expect(variableValues({ sender, owner })).toMatchObject({
      salesRep: "Olive Owner",
      salesRepEmail: "olive@helio.example",
      salesRepPhone: "+15550000002",
    });
    expect(variableValues({ sender, owner: null })).toMatchObject({
      salesRep: "Sam Sender",
      salesRepEmail: "sam@helio.example",
    });
  });
});

describe("the lead webhook's owner field (decision 044)", () => {
  it("an active user's email owns the new lead; an unknown one leaves it unowned; an update takes the named owner", async () => {
    const closer = await createTestUser({ email: `closer-${crypto.randomUUID().slice(0, 8)}@helio.test` });
    const run = (leads: unknown[], onDuplicate: "skip" | "update" = "skip") =>
      ingestLeads(
        db(),
        {
          leads,
          onDuplicate,
          defaultSource: "Matrix",
          apiKeyId: null,
          userId: closer.id,
          requestIp: null,
          idempotency: null,
          now: NOW,
        },
        async () => {},
      );
    const [a, b] = [uniquePhone(), uniquePhone()];
    const res = await run([
      { firstName: "Ann", phone: a, owner: closer.email.toUpperCase() },
      { firstName: "Bo", phone: b, salesRepEmail: "nobody@helio.test" },
    ]);
    expect(res.status).toBe(201);
    const owners = async () =>
      (
        await db()
          .select({ phone: contacts.phone, owner: contacts.ownerUserId })
          .from(contacts)
          .where(inArray(contacts.phone, [a, b]))
      ).sort((x, y) => x.phone.localeCompare(y.phone));
    expect(await owners()).toEqual(
      [
        { phone: a, owner: closer.id },
        { phone: b, owner: null },
      ].sort((x, y) => x.phone.localeCompare(y.phone)),
    );
    await run([{ firstName: "Bo", phone: b, owner: closer.email }], "update");
    expect((await owners()).every((o) => o.owner === closer.id)).toBe(true);
  });
});

describe("an owner chosen for a whole imported file (decision 044)", () => {
  it("every contact the file adds or updates gets the owner; a standard user may only choose themselves", async () => {
    const boss = await createTestUser({ role: "superuser" });
    const closer = await createTestUser();
    const [existing] = await seedContacts(1);
    const fresh = uniquePhone();
    const text = ["firstName,lastName,phone", `New,Lead,${fresh}`, `Old,Lead,${existing.phone}`].join("\n");
    const start = async (userId: number, owner: FileOwner) => {
      const imp = await stageContactImport(db(), { name: "owners.csv", text }, { userId }, NOW);
      return startContactImport(db(), {
        id: imp.id,
        userId,
        mode: "update",
        owner,
        clock: () => NOW,
        enqueue: async () => {},
      });
    };
    const rep = await createTestUser();
    await expect(start(rep.id, { ownerUserId: closer.id, role: "user" })).rejects.toMatchObject({ code: "forbidden" });
    expect(await start(boss.id, { ownerUserId: closer.id, role: "superuser" })).toMatchObject({
      status: "completed",
      createdCount: 1,
      updatedCount: 1,
    });
    const rows = await db()
      .select({ owner: contacts.ownerUserId })
      .from(contacts)
      .where(inArray(contacts.phone, [fresh, existing.phone]));
    expect(rows.map((r) => r.owner)).toEqual([closer.id, closer.id]);
  });
});
