import { env } from "cloudflare:test";
import { and, eq, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { activityLog, contacts } from "~/db/schema";
import { isAppError } from "~/lib/app-error";
import { createTestContact, seedContacts } from "../../tests/contact-factory";
import { measureD1, recordD1 } from "../../tests/d1-recorder";
import { createTestUser, db, SEES_ALL } from "../../tests/factories";
import { pipeline, queueMessage, DAYTIME } from "../../tests/messaging-harness";
import { sendMessages } from "~/messaging/consume-send-batch.server";
import { listContacts, scopedPageStatements } from "./list-contacts.server";
import { BOARD_CARDS, loadPipelineBoard, STAGE_COUNT_CAP } from "./load-pipeline-board.server";
import { listPipelineStages, UNKNOWN_STAGE } from "./pipeline-stages.server";
import { setContactStage } from "./set-contact-stage.server";
import {
  createPipelineStage,
  deletePipelineStage,
  movePipelineStage,
  renamePipelineStage,
} from "./manage-pipeline-stages.server";
import { plan } from "../../tests/query-plan";

// Issue 28 item 1, decision 053: a pipeline stage per contact, moved by hand (in scope only), New → Contacted when the
// first message goes out, a list filter and a board read through their own indexes.
const stageOf = async (id: number) =>
  (await db().select({ s: contacts.stage }).from(contacts).where(eq(contacts.id, id)).get())?.s;
const own = (id: number, owner: number | null) =>
  db().update(contacts).set({ ownerUserId: owner }).where(eq(contacts.id, id));

describe("pipeline stages (decision 053)", () => {
  it("ships New → Contacted → Appointment set → Sat → Sold / Lost / Cancelled, every contact starting as New", async () => {
    expect((await listPipelineStages(db())).map((s) => [s.key, s.label, s.outcome])).toEqual([
      ["new", "New", "open"],
      ["contacted", "Contacted", "open"],
      ["appointment_set", "Appointment set", "open"],
      ["sat", "Sat", "open"],
      ["sold", "Sold", "won"],
      ["lost", "Lost", "lost"],
      ["cancelled", "Cancelled", "lost"],
    ]);
    const u = await createTestUser();
    expect(await stageOf((await createTestContact(u.id)).id)).toBe("new");
  });

  it("a rep moves their own and unowned contacts, never another rep's; an unknown stage is refused; each move is logged", async () => {
    const rep = await createTestUser({ role: "user" });
    const other = await createTestUser({ role: "user" });
    const mine = await createTestContact(rep.id);
    const theirs = await createTestContact(rep.id);
    await own(mine.id, rep.id);
    await own(theirs.id, other.id);
    const actor = { userId: rep.id, role: "user" as const, ipAddress: null };
    const now = new Date();
    const r = await setContactStage(db(), { contactIds: [mine.id, theirs.id], stage: "sat" }, actor, now);
    expect(r).toMatchObject({ changed: 1, unchanged: 1 });
    expect([await stageOf(mine.id), await stageOf(theirs.id)]).toEqual(["sat", "new"]);
    const again = await setContactStage(db(), { contactIds: [mine.id], stage: "sat" }, actor, now);
    expect(again.changed).toBe(0);
    const bad = await setContactStage(db(), { contactIds: [mine.id], stage: "won-big" }, actor, now).catch((e) => e);
    expect(isAppError(bad) && [bad.code, bad.message, bad.field]).toEqual(["validation", UNKNOWN_STAGE, "stage"]);
    const log = await db()
      .select({ details: activityLog.details })
      .from(activityLog)
      .where(and(eq(activityLog.userId, rep.id), eq(activityLog.action, "set_contact_stage")));
    expect(log.map((l) => l.details)).toEqual([
      { stage: "sat", changed: 1, contactIds: [mine.id] },
      { stage: "sat", changed: 0, contactIds: [] },
    ]);
  });

  it("a New lead turns Contacted when its first message goes out; a later stage is never moved back", async () => {
    const { deps, queue } = await pipeline({ clock: () => DAYTIME });
    const u = await createTestUser();
    const fresh = await createTestContact(u.id, { state: "AZ" });
    const sat = await createTestContact(u.id, { state: "AZ" });
    const filtered = async () =>
      (await listContacts(db(), { stage: "sat", viewer: SEES_ALL })).contacts.map((c) => c.id);
    expect(await filtered()).not.toContain(sat.id);
    await db().update(contacts).set({ stage: "sat" }).where(eq(contacts.id, sat.id));
    for (const c of [fresh, sat])
      await queueMessage(deps, queue, {
        kind: "campaign",
        contactId: c.id,
        phone: c.phone,
        content: "Hi from the team",
      });
    expect(await stageOf(fresh.id)).toBe("new"); // queued is not contacted
    await sendMessages(queue.takeSendJobs(), deps);
    expect([await stageOf(fresh.id), await stageOf(sat.id)]).toEqual(["contacted", "sat"]);
    expect(await filtered()).toContain(sat.id);
  });

  it("the stage filter and the board read their indexes: seeks, no scan, no sort; a standard user's in their scope", async () => {
    const all = await plan(
      scopedPageStatements(db(), { kind: "all" }, eq(contacts.stage, "sat"), false, 51)[0].getSQL(),
    );
    expect(all).toMatch(/SEARCH contacts USING (COVERING )?INDEX contacts_stage_idx \(stage=\?\)/);
    expect(all).not.toMatch(/SCAN contacts|TEMP B-TREE/);
    const scoped = scopedPageStatements(
      db(),
      { kind: "own-or-unassigned", userId: 7 },
      eq(contacts.stage, "sat"),
      false,
      51,
    );
    for (const q of scoped) {
      const p = await plan(q.getSQL());
      expect(p).toMatch(
        /SEARCH contacts USING (COVERING )?INDEX contacts_owner_stage_idx \(owner_user_id=\? AND stage=\?\)/,
      );
      expect(p).not.toMatch(/SCAN contacts|TEMP B-TREE/);
    }
  });

  it("the board counts and shows each stage within the viewer's scope, reading the cap and the cards, not the table", async () => {
    const rep = await createTestUser({ role: "user" });
    const other = await createTestUser({ role: "user" });
    const seeded = await seedContacts(STAGE_COUNT_CAP + 300, () => ({}), rep.id);
    const ids = seeded.map((c) => c.id);
    await db().run(
      sql`UPDATE contacts SET stage = 'appointment_set', owner_user_id = ${other.id} WHERE id IN (SELECT value FROM json_each(${JSON.stringify(ids)}))`,
    );
    const mine = await createTestContact(rep.id);
    await own(mine.id, rep.id);
    await setContactStage(
      db(),
      { contactIds: [mine.id], stage: "appointment_set" },
      { userId: rep.id, role: "user", ipAddress: null },
      new Date(),
    );

    const everyone = await loadPipelineBoard(db(), SEES_ALL);
    const set = everyone.columns.find((c) => c.key === "appointment_set")!;
    expect(set).toMatchObject({ count: STAGE_COUNT_CAP, more: true });
    expect(set.contacts).toHaveLength(BOARD_CARDS);

    const restore = recordD1(env.DB);
    try {
      const measured = await measureD1(() => loadPipelineBoard(db(), { userId: rep.id, role: "user" }));
      // Seven stages: for each, two capped count walks and two card pages, in the rep's scope.
      expect(measured.read).toBeLessThan(200);
    } finally {
      restore();
    }
    const repBoard = await loadPipelineBoard(db(), { userId: rep.id, role: "user" });
    const repSet = repBoard.columns.find((c) => c.key === "appointment_set")!;
    expect(repSet).toMatchObject({ count: 1, more: false });
    expect(repSet.contacts.map((c) => c.id)).toEqual([mine.id]);
  });

  it("a superuser adds, renames, moves and deletes a stage; built-in and occupied stages stay", async () => {
    const admin = await createTestUser({ role: "superuser" });
    const actor = { userId: admin.id, ipAddress: null };
    const now = new Date();
    const keys = async () => (await listPipelineStages(db())).map((s) => s.key);
    expect(await createPipelineStage(db(), { label: "Site survey", outcome: "open" }, actor, now)).toBe("site_survey");
    expect((await keys()).at(-1)).toBe("site_survey");
    const dup = await createPipelineStage(db(), { label: "site  SURVEY", outcome: "open" }, actor, now).catch((e) => e);
    expect(isAppError(dup) && dup.code).toBe("conflict");
    expect(await movePipelineStage(db(), "site_survey", "up", actor, now)).toBe(true);
    expect((await keys()).slice(-2)).toEqual(["site_survey", "cancelled"]);
    expect(await movePipelineStage(db(), "new", "up", actor, now)).toBe(false); // already first
    await renamePipelineStage(db(), "site_survey", "Roof survey", actor, now);
    expect((await listPipelineStages(db())).find((s) => s.key === "site_survey")?.label).toBe("Roof survey");

    // Occupied: refused until the contact moves on; built in: always refused.
    const u = await createTestUser();
    const c = await createTestContact(u.id);
    await setContactStage(db(), { contactIds: [c.id], stage: "site_survey" }, { ...actor, role: "superuser" }, now);
    const occupied = await deletePipelineStage(db(), "site_survey", actor, now).catch((e) => e);
    expect(isAppError(occupied) && occupied.code).toBe("conflict");
    const builtIn = await deletePipelineStage(db(), "contacted", actor, now).catch((e) => e);
    expect(isAppError(builtIn) && builtIn.code).toBe("validation");
    await setContactStage(db(), { contactIds: [c.id], stage: "sat" }, { ...actor, role: "superuser" }, now);
    await deletePipelineStage(db(), "site_survey", actor, now);
    expect(await keys()).not.toContain("site_survey");
    // A deleted stage moves no one.
    const gone = await setContactStage(
      db(),
      { contactIds: [c.id], stage: "site_survey" },
      { ...actor, role: "superuser" },
      now,
    ).catch((e) => e);
    expect(isAppError(gone) && gone.message).toBe(UNKNOWN_STAGE);
  });
});
