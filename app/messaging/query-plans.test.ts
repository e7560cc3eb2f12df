import { env } from "cloudflare:test";
import { type SQL } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { db } from "../../tests/factories";
import {
  claimStatements,
  recordOutcomeStatements,
  selectBatchPacing,
  selectQueuedForSend,
  stickySenderStatements,
} from "./consume-send-batch.server";
import { selectRepliesToRepNumbers } from "~/contacts/assign-replies-to-rep-numbers.server";
import { markQueued } from "./enqueue-due-messages.server";
import { plainWordsOptOuts } from "./review-plain-opt-outs.server";
import { ownerCondition, selectContactsPage } from "~/contacts/list-contacts.server";
import { plan } from "../../tests/query-plan";

// The pipeline's per-batch statements find rows by id and then check their status. SQLite would rather
// use the (status, …) index, which with a 10k backlog scans every queued row per batch (the broadcast
// benchmark measured 187 ms per claim). The unary `+` on status keeps these on the primary key.
// The statements below are the ones the consumer and the enqueuer run (their exported builders), not copies.

describe("query plans of the send pipeline's batch statements", () => {
  it("the consumer's read, claim and record and the enqueuer's pending → queued use the primary key, not the status index", async () => {
    const statements: [string, SQL][] = [
      ["read", selectQueuedForSend(db(), [1, 2, 3]).getSQL()],
      ["claim", claimStatements([{ id: 1, status: "sending", claim: 1, content: "x", subject: null }], 0)[0]],
      ["record", recordOutcomeStatements([{ id: 1, status: "sent", sid: "SM1" }], 0)[0]],
      ["enqueue", markQueued(db(), [1, 2, 3], new Date(0)).getSQL()],
    ];
    for (const [name, q] of statements) {
      const p = await plan(q);
      expect(p, name).toMatch(/INTEGER PRIMARY KEY/);
      expect(p, name).not.toMatch(/messages_(due|status_created_at)_idx/);
    }
  });

  it("without the + the planner picks the status index (why the + is there)", async () => {
    const p = (
      await env.DB.prepare(
        `EXPLAIN QUERY PLAN SELECT m.id FROM messages m WHERE m.id IN (SELECT value FROM json_each(?)) AND m.status = 'queued'`,
      )
        .bind("[1,2,3]")
        .all<{ detail: string }>()
    ).results
      .map((r) => r.detail)
      .join(" | ");
    expect(p).toMatch(/messages_(due|status_created_at)_idx/);
  });

  it("the plain-words opt-out review list reads its index and each message by sid, never the tables", async () => {
    const p = await plan(plainWordsOptOuts(db()).getSQL());
    expect(p).toMatch(/SEARCH s USING INDEX suppressions_reason_created_at_idx/);
    expect(p).toMatch(/SEARCH m USING INDEX/);
    expect(p).not.toMatch(/SCAN (s|m)\b/);
  });

  it("the owner filter on /contacts and the send consumer's owner join seek contacts_owner_idx and users by id (decision 044)", async () => {
    for (const owner of [7, "none"] as const) {
      const p = await plan(selectContactsPage(db(), ownerCondition(owner), false, 51).getSQL());
      expect(p, String(owner)).toMatch(/SEARCH contacts USING (COVERING )?INDEX contacts_owner_idx/);
      expect(p, String(owner)).not.toMatch(/SCAN contacts|USE TEMP B-TREE/);
    }
    expect(await plan(selectQueuedForSend(db(), [1, 2, 3]).getSQL())).toMatch(/SEARCH owner USING INTEGER PRIMARY KEY/);
  });

  it("the consumer's next-appointment join (issue 28) seeks appointments_contact_idx, then the row by id", async () => {
    const read = await plan(selectQueuedForSend(db(), [1, 2, 3]).getSQL());
    expect(read).toMatch(/SEARCH a USING INDEX appointments_contact_idx \(contact_id=\? AND starts_at>\?\)/);
    expect(read).toMatch(/SEARCH next_appointment USING INTEGER PRIMARY KEY/);
    expect(read).not.toMatch(/SCAN (a|next_appointment)\b/);
  });

  it("numbers per rep (decision 045): the senders' pacing rows, the sticky write and the reply's rep are seeks, never scans", async () => {
    const read = await plan(selectQueuedForSend(db(), [1, 2, 3]).getSQL());
    // The sticky sender still in use: a seek of users_sms_sender_uq per row of the same read.
    expect(read).toMatch(/SEARCH u USING COVERING INDEX users_sms_sender_uq \(sms_sender=\?\)/);
    const pacing = await plan(selectBatchPacing(db(), [1, 2, 3], "+15005550006").getSQL());
    expect(pacing).toMatch(/SEARCH sender_pacing USING INDEX sqlite_autoindex_sender_pacing_1 \(sender=\?\)/);
    expect(pacing).toMatch(/SEARCH m USING INTEGER PRIMARY KEY/);
    expect(pacing).toMatch(/SEARCH c USING INTEGER PRIMARY KEY/);
    expect(pacing).toMatch(/SEARCH o USING INTEGER PRIMARY KEY/);
    expect(pacing).not.toMatch(/SCAN (m|c|o|sender_pacing)\b/);
    const sticky = await plan(stickySenderStatements([{ contactId: 1, from: "+15005550006" }])[0]);
    expect(sticky).toMatch(/SEARCH contacts USING INTEGER PRIMARY KEY/);
    const replies = await plan(selectRepliesToRepNumbers(db(), [1, 2, 3]).getSQL());
    expect(replies).toMatch(/SEARCH messages USING INTEGER PRIMARY KEY/);
    expect(replies).toMatch(/SEARCH users USING INDEX users_sms_sender_uq \(sms_sender=\?\)/);
    expect(replies).not.toMatch(/SCAN (messages|users)\b/);
  });
});
