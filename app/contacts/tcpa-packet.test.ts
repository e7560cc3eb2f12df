// The TCPA packet (issue 29 item 4): one contact's consent, evidence, messages with their local time, holds and
// opt-outs — exactly that contact's records, on a printable page and as CSV, only for users who may see the contact.
import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { call, db, signedIn } from "../../tests/factories";
import { createTestContact } from "../../tests/contact-factory";
import { buildTcpaPacket } from "./build-tcpa-packet.server";
import { contactImports, contacts } from "~/db/schema";
import { eq, inArray } from "drizzle-orm";
import { createTestUser } from "../../tests/factories";
import { uniquePhone } from "../../tests/contact-factory";
import { loadColumnMatch, matchImportColumns } from "./match-import-columns.server";
import { stageCsvForMatching } from "./stage-contact-import.server";
import { startContactImport, type ImportConsent } from "./start-contact-import.server";
import { leadConsentsFrom, selectImportConsent } from "./list-lead-consents.server";
import { plan } from "../../tests/query-plan";
import { viewerOf } from "./contact-scope.server";
import { capNote } from "~/messaging/marketing-cap";
import { senderPausedNote } from "~/messaging/sender-pause";
import { STATE_RULES } from "~/messaging/state-rules";

const T0 = Date.UTC(2026, 10, 18, 16, 0); // 11:00 in New York

async function message(
  contactId: number,
  phone: string,
  fields: {
    direction: "inbound" | "outbound";
    status: string;
    content: string;
    at: number;
    kind?: string;
    note?: string;
  },
) {
  const row = await db().get<{ id: number }>(sql`INSERT INTO messages (channel, direction, status, contact_id, phone,
    content, idempotency_key, is_marketing, kind, sent_at, error_message, created_at, updated_at)
    VALUES ('sms', ${fields.direction}, ${fields.status}, ${contactId}, ${phone}, ${fields.content},
    ${crypto.randomUUID()}, ${fields.direction === "outbound" ? 1 : 0}, ${fields.kind ?? "broadcast"},
    ${fields.status === "sent" || fields.status === "received" ? fields.at : null}, ${fields.note ?? null}, ${fields.at},
    ${fields.at}) RETURNING id`);
  return row!.id;
}

async function contactWithHistory(userId: number, name: string) {
  const c = await createTestContact(userId, { firstName: name, state: "NY", zipCode: "10001" });
  const ids = [
    await message(c.id, c.phone, { direction: "outbound", status: "sent", content: `Hi ${name}, solar?`, at: T0 }),
    await message(c.id, c.phone, {
      direction: "inbound",
      status: "received",
      content: "=1+1 <b>STOP</b>",
      at: T0 + 60_000,
    }),
  ];
  const held = await message(c.id, c.phone, {
    direction: "outbound",
    status: "queued",
    content: "Evening offer",
    at: T0 + 120_000,
  });
  // The consumer's deferral: the compliance trigger records the hold (quiet hours) as it would.
  await db().run(sql`UPDATE messages SET status = 'pending', updated_at = ${T0 + 180_000},
    error_message = 'Deferred: outside allowed sending hours in the recipient''s time zone (Federal (TCPA): 47 CFR 64.1200(c)(1))'
    WHERE id = ${held}`);
  // The opt-out (the trigger writes the consent event).
  await db().run(sql`UPDATE contacts SET opted_out_at = ${T0 + 61_000}, opted_out_source = 'STOP keyword',
    updated_at = ${T0 + 61_000} WHERE id = ${c.id}`);
  await db().run(sql`INSERT INTO lead_consents (contact_id, source, consent_text, seller_name, page_url, ip_address,
    consented_at, created_at) VALUES (${c.id}, 'SunLeads', 'I agree to receive texts from Helio Solar', 'Helio Solar',
    'https://leads.example/form', '203.0.113.9', ${T0 - 86_400_000}, ${T0 - 86_400_000})`);
  return { contact: c, messageIds: [...ids, held] };
}

describe("the TCPA packet", () => {
  it("holds exactly the contact's records, oldest first, each with the contact's local time", async () => {
    const { user } = await signedIn();
    const a = await contactWithHistory(user.id, "Rosa");
    const b = await contactWithHistory(user.id, "Other");
    const packet = await buildTcpaPacket(db(), a.contact.id, viewerOf(user), new Date(T0 + 3_600_000));

    expect(packet.entries.map((e) => e.record)).toEqual([
      "lead consent",
      "message",
      "message",
      "consent",
      "message",
      "hold",
    ]);
    const messageIds = packet.entries.flatMap((e) => (e.record === "message" ? [e.messageId] : []));
    expect(messageIds.sort()).toEqual([...a.messageIds].sort());
    for (const id of b.messageIds) expect(packet.entries.some((e) => e.messageId === id)).toBe(false);
    expect(packet.entries.some((e) => e.text.includes("Other"))).toBe(false);
    expect(packet.entries[0]).toMatchObject({ to: "Helio Solar", text: "I agree to receive texts from Helio Solar" });
    expect(packet.entries.find((e) => e.record === "consent")).toMatchObject({
      what: "Opted out",
      reason: "STOP keyword",
    });
    expect(packet.entries.at(-1)).toMatchObject({ what: "Held for the calling window" });
    expect(packet.entries.at(-1)!.reason).toMatch(/47 CFR 64\.1200/);
    expect(packet.contact).toMatchObject({ state: "NY", timeZone: "America/New_York", optedOutSource: "STOP keyword" });
  });

  it("holds every hold a sending rule made: the Florida cap's deferral and a paused number's hold; not a paused campaign's", async () => {
    const { user } = await signedIn();
    const c = await createTestContact(user.id, { firstName: "Flo", state: "FL", zipCode: "33101" });
    const hold = async (status: "pending" | "held", note: string, at: number) => {
      const id = await message(c.id, c.phone, { direction: "outbound", status: "queued", content: note, at });
      await db().run(
        sql`UPDATE messages SET status = ${status}, error_message = ${note}, updated_at = ${at + 1000} WHERE id = ${id}`,
      );
    };
    const cap = capNote(STATE_RULES.find((r) => r.state === "FL")!);
    await hold("pending", cap, T0);
    await hold("held", senderPausedNote("+16025550100"), T0 + 60_000);
    await hold("held", "Held: the campaign is paused", T0 + 120_000);
    const packet = await buildTcpaPacket(db(), c.id, viewerOf(user), new Date(T0 + 3_600_000));
    expect(packet.entries.filter((e) => e.record === "hold").map((e) => [e.what, e.reason])).toEqual([
      ["Held by a sending rule", cap],
      ["Held by a sending rule", senderPausedNote("+16025550100")],
    ]);
  });

  it("is a printable page and a CSV for whoever may see the contact; another rep's contact is a 404", async () => {
    const { user, cookie } = await signedIn();
    const { contact } = await contactWithHistory(user.id, "Rosa");
    // The rep's own contact (decision 048): another rep may not open it.
    await db().run(sql`UPDATE contacts SET owner_user_id = ${user.id} WHERE id = ${contact.id}`);

    const page = await call(`/contacts/${contact.id}/tcpa-packet`, { cookie });
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain("TCPA packet: Rosa");
    expect(html).toContain("Nov 18, 2026, 11:00:00 AM EST"); // the first text, in New York time
    expect(html).toContain("&lt;b&gt;STOP&lt;/b&gt;"); // the contact's words as text, never markup
    expect(html).not.toContain("<b>STOP</b>");

    const csv = await call(`/contacts/${contact.id}/tcpa-packet.csv`, { cookie });
    expect(csv.status).toBe(200);
    expect(csv.headers.get("Content-Type")).toBe("text/csv; charset=utf-8");
    expect(csv.headers.get("Content-Disposition")).toMatch(/^attachment; filename="tcpa-packet-contact-\d+-/);
    const lines = (await csv.text()).trim().split("\r\n");
    expect(lines[0]).toMatch(/^"at_utc","at_contact_local","record"/);
    expect(lines).toHaveLength(1 + 6);
    // The contact's STOP, with a cell a spreadsheet would run as a formula written as text.
    expect(lines.find((l) => l.includes("STOP</b>"))).toContain(`"'=1+1 <b>STOP</b>"`);
    expect(lines.join("\n")).not.toMatch(/,"=/);

    const other = await signedIn();
    for (const path of [`/contacts/${contact.id}/tcpa-packet`, `/contacts/${contact.id}/tcpa-packet.csv`]) {
      expect((await call(path, { cookie: other.cookie })).status, path).toBe(404);
      expect((await call(path)).status, `${path} signed out`).toBe(302);
    }
  });
});

describe("an imported list's consent record (issue 29 item 2, decision 071)", () => {
  const NOW = new Date(T0);
  async function importList(userId: number, name: string, phones: string[], consent: ImportConsent | null) {
    const text = ["First Name,Last Name,Phone", ...phones.map((p, i) => `Lea${i},List,${p}`)].join("\n");
    const imp = await stageCsvForMatching(db(), { name, text }, { userId }, NOW);
    const match = await loadColumnMatch(db(), imp.id);
    await matchImportColumns(
      db(),
      { id: imp.id, userId, role: "superuser", columns: match.columns.map((c) => c.target ?? "") },
      NOW,
    );
    await startContactImport(db(), {
      id: imp.id,
      userId,
      mode: "skip",
      consent,
      clock: () => NOW,
      enqueue: async () => {},
    });
    return imp.id;
  }

  it("the seller and wording given for a file are kept once on the import and shown in each new contact's packet", async () => {
    const user = await createTestUser({ role: "superuser" });
    const viewer = viewerOf({ id: user.id, role: "superuser" });
    const phones = [uniquePhone(), uniquePhone()];
    const wording = "By submitting, I agree that Sun Solar may text me about solar offers. Reply STOP to opt out.";
    const id = await importList(user.id, "vendor-nov.csv", phones, { seller: "Sun Solar LLC", text: wording });
    const imp = (await db().select().from(contactImports).where(eq(contactImports.id, id)).get())!;
    expect(imp).toMatchObject({ status: "completed", consentSeller: "Sun Solar LLC", consentText: wording });
    const rows = await db()
      .select({ id: contacts.id, importId: contacts.consentImportId, source: contacts.consentSource })
      .from(contacts)
      .where(inArray(contacts.phone, phones));
    expect(rows).toHaveLength(2);
    for (const r of rows) {
      expect(r).toMatchObject({ importId: id, source: "csv:vendor-nov.csv" });
      const packet = await buildTcpaPacket(db(), r.id, viewer, NOW);
      const consent = packet.entries.filter((e) => e.what.startsWith("Consent with the imported list"));
      expect(consent).toEqual([
        expect.objectContaining({
          at: T0,
          record: "lead consent",
          what: "Consent with the imported list vendor-nov.csv (marketing and appointment texts)",
          to: "Sun Solar LLC",
          text: wording,
        }),
      ]);
    }

    // The contact page's Lead card: the same record, by two primary keys in the page's batch.
    const onPage = leadConsentsFrom([], await selectImportConsent(db(), rows[0].id));
    expect(onPage).toEqual([
      expect.objectContaining({ source: "csv:vendor-nov.csv", sellerName: "Sun Solar LLC", consentText: wording }),
    ]);
    const p = await plan(selectImportConsent(db(), rows[0].id).getSQL());
    expect(p).toMatch(/SEARCH contacts USING INTEGER PRIMARY KEY/);
    expect(p).toMatch(/SEARCH contact_imports USING INTEGER PRIMARY KEY/);

    // A file without a record names no import on its contacts, and their packets hold no list consent.
    const bare = uniquePhone();
    await importList(user.id, "plain.csv", [bare], null);
    const plain = (await db().select().from(contacts).where(eq(contacts.phone, bare)).get())!;
    expect(plain.consentImportId).toBeNull();
    const packet = await buildTcpaPacket(db(), plain.id, viewer, NOW);
    expect(packet.entries.filter((e) => e.record === "lead consent")).toEqual([]);
    expect(await selectImportConsent(db(), plain.id)).toEqual([]);
  });
});
