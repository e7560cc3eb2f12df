// The messages table's UPDATE triggers do their work only when the columns they copy really changed: the send
// consumer's claim writes `content` for every row of a batch (the rendered text, or the same text back for a row it
// only decides on), and the search index and conversation preview must not be rewritten when nothing changed.
import { listConversations } from "~/conversations/list-conversations.server";
import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { db, SEES_ALL } from "../../tests/factories";
import { uniquePhone } from "../../tests/contact-factory";
import { appHooks, DAYTIME, pipeline } from "../../tests/messaging-harness";
import { createOutboundMessages } from "./create-outbound-messages.server";
import { listMessages } from "../message-center/list-messages.server";

async function rowsWritten(statement: ReturnType<typeof sql>) {
  const result = (await db().run(statement)) as unknown as { meta: { rows_written: number } };
  return result.meta.rows_written;
}

describe("message triggers", () => {
  it("an UPDATE that leaves the content as it was writes the row alone; a new text reindexes search, and the list's preview follows it", async () => {
    const { deps, queue } = await pipeline({ clock: () => DAYTIME });
    const phone = uniquePhone();
    const marker = `tri${crypto.randomUUID().slice(0, 8)}`;
    const [id] = await createOutboundMessages(
      deps.db,
      queue,
      [{ channel: "sms", kind: "individual", phone, content: `Hello ${marker} old`, idempotencyKey: `trig:${marker}` }],
      DAYTIME,
      appHooks,
    );

    // Same content: as many rows written as an UPDATE of a column no trigger or index watches (7 before 0040).
    const baseline = await rowsWritten(sql`UPDATE messages SET updated_at = updated_at WHERE id = ${id}`);
    expect(await rowsWritten(sql`UPDATE messages SET content = content WHERE id = ${id}`)).toBe(baseline);
    expect(await rowsWritten(sql`UPDATE messages SET content = coalesce(NULL, content) WHERE id = ${id}`)).toBe(
      baseline,
    );

    // A new text: the index follows it, and the conversation list's preview (read from the message, decision 056).
    expect(
      await rowsWritten(sql`UPDATE messages SET content = ${`Hello ${marker} new`} WHERE id = ${id}`),
    ).toBeGreaterThan(baseline);
    const found = await listMessages(deps.db, { viewer: SEES_ALL, q: `${marker} new`, limit: 10 });
    expect(found.messages.map((m) => m.id)).toEqual([id]);
    expect((await listMessages(deps.db, { viewer: SEES_ALL, q: `${marker} old`, limit: 10 })).messages).toEqual([]);
    const listed = await listConversations(deps.db, {
      view: "all",
      state: "open",
      seeAll: true,
      userId: 0,
      now: DAYTIME,
      limit: 100,
    });
    expect(listed.conversations.find((c) => c.phone === phone)?.lastPreview).toBe(`Hello ${marker} new`);
  });

  it("a campaign or broadcast row is searchable by what was sent: its template is not indexed, its rendered text is, once", async () => {
    const { deps, queue } = await pipeline({ clock: () => DAYTIME });
    const marker = `bulk${crypto.randomUUID().slice(0, 8)}`;
    const [templated, plain] = await createOutboundMessages(
      deps.db,
      queue,
      [
        {
          channel: "sms",
          kind: "broadcast",
          phone: uniquePhone(),
          content: `Hi {{firstName}}, ${marker} savings`,
          idempotencyKey: `trig:${marker}:1`,
        },
        {
          channel: "sms",
          kind: "broadcast",
          phone: uniquePhone(),
          content: `Hello, ${marker} savings`,
          idempotencyKey: `trig:${marker}:2`,
        },
      ],
      DAYTIME,
    );
    const search = async (q: string) =>
      (await listMessages(deps.db, { viewer: SEES_ALL, q, limit: 10 })).messages.map((m) => m.id).sort();
    // The template is not what anybody received: only the row without variables is found.
    expect(await search(`${marker} savings`)).toEqual([plain]);
    // The consumer writes the rendered text: the row is indexed then (an insert, no delete of a template entry).
    await deps.db.run(sql`UPDATE messages SET content = ${`Hi Rosa, ${marker} savings`} WHERE id = ${templated}`);
    expect(await search(`${marker} savings`)).toEqual([templated, plain].sort((a, b) => a - b));
    expect(await search(`Rosa, ${marker}`)).toEqual([templated]);
    // Deleting either keeps the external-content index consistent.
    await deps.db.run(sql`DELETE FROM messages WHERE id IN (${templated}, ${plain})`);
    expect(await search(`${marker} savings`)).toEqual([]);
    await deps.db.run(sql`INSERT INTO messages_fts(messages_fts, rank) VALUES ('integrity-check', 1)`);
  });
});
