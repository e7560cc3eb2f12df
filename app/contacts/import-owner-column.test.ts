// An Owner column in an imported file (issue 27 item 1, decision 050): each row names its owner by email or an
// unambiguous full name; an unknown, ambiguous or (for a standard user) someone else's owner is that row's error in
// the preview; a row's owner wins over the preview's "Owner of these contacts"; the CSV (Match columns) and the
// spreadsheet (Quick Upload & Send, streamed) paths read it alike.
import { utils, write } from "@e965/xlsx";
import { eq, inArray } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { contactImports, contacts } from "~/db/schema";
import { stageQuickSend } from "~/quick-send/stage-quick-send.server";
import { uniquePhone, uniqueTag } from "../../tests/contact-factory";
import { createTestUser, db } from "../../tests/factories";
import { seedContacts } from "../../tests/contact-factory";
import { loadColumnMatch, matchImportColumns } from "./match-import-columns.server";
import { OWNER_NOT_ALLOWED } from "./set-contact-owner.server";
import { stageCsvForMatching } from "./stage-contact-import.server";
import { startContactImport } from "./start-contact-import.server";

const NOW = new Date("2026-11-27T10:00:00Z");

const ownersOf = async (phones: string[]) =>
  Object.fromEntries(
    (
      await db()
        .select({ phone: contacts.phone, owner: contacts.ownerUserId })
        .from(contacts)
        .where(inArray(contacts.phone, phones))
    ).map((r) => [r.phone, r.owner]),
  );

async function importCsv(text: string, user: { id: number; role: "superuser" | "user" }, fileOwner: number | null) {
  const imp = await stageCsvForMatching(db(), { name: "owners.csv", text }, { userId: user.id }, NOW);
  const match = await loadColumnMatch(db(), imp.id);
  await matchImportColumns(
    db(),
    { id: imp.id, userId: user.id, role: user.role, columns: match.columns.map((c) => c.target ?? "") },
    NOW,
  );
  const staged = (await db().select().from(contactImports).where(eq(contactImports.id, imp.id)).get())!;
  const done = await startContactImport(db(), {
    id: imp.id,
    userId: user.id,
    mode: "update",
    owner: { ownerUserId: fileOwner, role: user.role },
    clock: () => NOW,
    enqueue: async () => {},
  });
  return { match, staged, done };
}

describe("an Owner column in an imported file", () => {
  it("gives each row the user it names (email in any case, or a unique full name) over the file's owner; unknown and ambiguous names are row errors", async () => {
    const tag = uniqueTag("Ow");
    const boss = await createTestUser({ role: "superuser" });
    const setter = await createTestUser({ firstName: `Sam${tag}`, lastName: "Setter" });
    const closer = await createTestUser({ firstName: `Cleo${tag}`, lastName: "Closer" });
    await createTestUser({ firstName: `Twin${tag}`, lastName: "Same" });
    await createTestUser({ firstName: `Twin${tag}`, lastName: "Same" });
    const gone = await createTestUser({ firstName: `Gone${tag}`, lastName: "Rep", isActive: false });
    const fallback = await createTestUser();
    const [existing] = await seedContacts(1);
    const p = [uniquePhone(), uniquePhone(), uniquePhone(), uniquePhone(), uniquePhone()];
    const text = [
      "First Name,Last Name,Phone,Contact Owner",
      `A,One,${p[0]},${setter.email.toUpperCase()}`,
      `B,Two,${p[1]},  cleo${tag.toLowerCase()}   closer `,
      `C,Three,${p[2]},`,
      `D,Four,${p[3]},nobody-${tag}@example.com`,
      `E,Five,${p[4]},Twin${tag} Same`,
      `F,Six,${existing.phone},${gone.email}`,
      `G,Seven,${existing.phone.replace(/.$/, (d) => String((Number(d) + 1) % 10))},${closer.email}`,
    ].join("\n");
    const { match, staged, done } = await importCsv(text, { id: boss.id, role: "superuser" }, fallback.id);
    expect(match.columns.map((c) => c.target)).toEqual(["firstName", "lastName", "phone", "owner"]);
    expect(staged).toMatchObject({ validRows: 4, rejectedRows: 3, ownerRows: 3 });
    expect(staged.errors).toEqual([
      `Row 5: Owner "nobody-${tag}@example.com" is not an active user`,
      `Row 6: Owner "Twin${tag} Same" matches more than one user; use their email`,
      `Row 7: Owner "${gone.email}" is not an active user`,
    ]);
    expect(done).toMatchObject({ status: "completed", createdCount: 4 });
    const owners = await ownersOf([...p, existing.phone]);
    expect(owners[p[0]]).toBe(setter.id);
    expect(owners[p[1]]).toBe(closer.id);
    expect(owners[p[2]]).toBe(fallback.id); // no owner in the row: the preview's choice
    expect(owners[p[3]]).toBeUndefined();
    expect(owners[p[4]]).toBeUndefined();
  });

  it("a row's owner also wins when the file updates an existing contact", async () => {
    const boss = await createTestUser({ role: "superuser" });
    const closer = await createTestUser();
    const fallback = await createTestUser();
    const [existing] = await seedContacts(1);
    await importCsv(
      ["First Name,Last Name,Phone,Owner", `Old,Lead,${existing.phone},${closer.email}`].join("\n"),
      { id: boss.id, role: "superuser" },
      fallback.id,
    );
    expect((await ownersOf([existing.phone]))[existing.phone]).toBe(closer.id);
  });

  it("a standard user may name only themselves: another user's row is refused with the rule's message", async () => {
    const rep = await createTestUser();
    const other = await createTestUser();
    const [mine, theirs] = [uniquePhone(), uniquePhone()];
    const text = [
      "First Name,Last Name,Phone,Owner",
      `A,Mine,${mine},${rep.email}`,
      `B,Theirs,${theirs},${other.email}`,
    ].join("\n");
    const { staged } = await importCsv(text, { id: rep.id, role: "user" }, null);
    expect(staged.errors).toEqual([`Row 3: Owner "${other.email}": ${OWNER_NOT_ALLOWED}`]);
    expect(await ownersOf([mine, theirs])).toEqual({ [mine]: rep.id });
  });

  it("an .xlsx (streamed) reads the Owner column the same way", async () => {
    const boss = await createTestUser({ role: "superuser" });
    const closer = await createTestUser();
    const [a, b] = [uniquePhone(), uniquePhone()];
    const book = utils.book_new();
    utils.book_append_sheet(
      book,
      utils.aoa_to_sheet([
        ["First Name", "Phone", "Sales Rep"],
        ["Ana", a, closer.email],
        ["Bo", b, "someone-else@example.com"],
      ]),
      "Leads",
    );
    const bytes = new Uint8Array(write(book, { type: "array", bookType: "xlsx" }) as ArrayBuffer);
    const staged = await stageQuickSend(
      db(),
      { file: new File([bytes], "leads.xlsx"), message: "Hi", scheduledAt: null },
      { userId: boss.id, role: "superuser" },
      NOW,
    );
    expect(staged).toMatchObject({ validRows: 1, ownerRows: 1 });
    expect(staged.errors).toEqual([`Row 3: Owner "someone-else@example.com" is not an active user`]);
    await startContactImport(db(), {
      id: staged.id,
      userId: boss.id,
      mode: "skip",
      clock: () => NOW,
      enqueue: async () => {},
    });
    expect(await ownersOf([a])).toEqual({ [a]: closer.id });
  });
});
