// The conversation screen's new reads (decision 047) are bounded index reads: a thread page's notes, a user's
// Mentions list, and the cancel of a waiting send. The statements are the ones the modules run (their builders).
import { describe, expect, it } from "vitest";
import { db } from "../../tests/factories";
import { selectMentions } from "./list-mentions.server";
import { selectThreadNotes } from "./list-thread-notes.server";
import { plan } from "../../tests/query-plan";

const SPAN = { from: new Date("2026-11-01T00:00:00Z"), to: new Date("2026-11-02T00:00:00Z") };

describe("query plans of the conversation's notes and mentions", () => {
  it("a contact's thread notes seek conversation_notes_contact_idx in order; names by primary key", async () => {
    for (const span of [SPAN, {}]) {
      const p = await plan(selectThreadNotes(db(), { contactId: 7 }, span).getSQL());
      expect(p).toMatch(/SEARCH conversation_notes USING INDEX conversation_notes_contact_idx \(contact_id=\?/);
      expect(p).toMatch(/SEARCH author USING INTEGER PRIMARY KEY/);
      expect(p).toMatch(/SEARCH handoff USING INTEGER PRIMARY KEY/);
      expect(p).not.toMatch(/SCAN|TEMP B-TREE/);
    }
  });

  it("a bare number's thread notes seek the partial conversation_notes_phone_idx", async () => {
    const p = await plan(selectThreadNotes(db(), { phone: "+14155550100" }, SPAN).getSQL());
    expect(p).toMatch(/SEARCH conversation_notes USING INDEX conversation_notes_phone_idx \(phone=\?/);
    expect(p).not.toMatch(/SCAN|TEMP B-TREE/);
  });

  it("a user's Mentions list is one seek of note_mentions' key, each note, author and contact by primary key", async () => {
    const p = await plan(selectMentions(db(), 7).getSQL());
    expect(p).toMatch(
      /SEARCH note_mentions USING (COVERING )?(PRIMARY KEY|INDEX sqlite_autoindex_note_mentions_1) \(user_id=\?\)/,
    );
    expect(p).toMatch(/SEARCH conversation_notes USING INTEGER PRIMARY KEY/);
    expect(p).toMatch(/SEARCH contacts USING INTEGER PRIMARY KEY/);
    expect(p).not.toMatch(/SCAN|TEMP B-TREE/);
  });
});
