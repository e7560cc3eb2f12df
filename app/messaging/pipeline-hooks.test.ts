// The pipeline's extension points (decision 028): a person's send needs the hooks, inbound processors run in their
// listed order, and a hold keeps a message from its provider.
import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { db } from "../../tests/factories";
import { uniquePhone } from "../../tests/contact-factory";
import { DAYTIME, pipeline, queueMessage, recordingQueue } from "../../tests/messaging-harness";
import { sendMessages } from "./consume-send-batch.server";
import { createOutboundMessages } from "./create-outbound-messages.server";
import { NO_PIPELINE_HOOKS, type InboundProcessor, type PipelineHooks } from "./pipeline-hooks";
import { processInboundMessages } from "./receive-inbound.server";

describe("pipeline hooks", () => {
  it("a person's send without the hooks is refused before anything is written; with them, the hook hears the number", async () => {
    const phone = uniquePhone();
    const key = `hook:${crypto.randomUUID()}`;
    const input = { channel: "sms" as const, kind: "individual" as const, phone, content: "Hi", idempotencyKey: key };
    await expect(createOutboundMessages(db(), recordingQueue(), [input], DAYTIME)).rejects.toThrow(/pipeline hooks/);
    expect(await db().get(sql`SELECT id FROM messages WHERE idempotency_key = ${key}`)).toBeUndefined();
    const heard: string[][] = [];
    const hooks: PipelineHooks = { ...NO_PIPELINE_HOOKS, humanSend: [async (_ctx, phones) => void heard.push(phones)] };
    await createOutboundMessages(db(), recordingQueue(), [input], DAYTIME, hooks);
    await createOutboundMessages(db(), recordingQueue(), [input], DAYTIME, hooks); // the same send again: nothing created, nobody told
    expect(heard).toEqual([[phone]]);
  });

  it("runs the inbound processors in their listed order, each with the event's context", async () => {
    const order: string[] = [];
    const ctx = { db: db(), queue: recordingQueue(), now: DAYTIME };
    const processor = (name: string): InboundProcessor => ({
      name,
      process: async (c, ids) => void order.push(`${name}:${ids.join(",")}:${c.now.getTime()}`),
    });
    await processInboundMessages(ctx, [7, 8], [processor("first"), processor("second"), processor("third")]);
    const t = DAYTIME.getTime();
    expect(order).toEqual([`first:7,8:${t}`, `second:7,8:${t}`, `third:7,8:${t}`]);
  });

  it("a hold keeps the message from the provider, with the hook's reason", async () => {
    const { deps, twilio, queue } = await pipeline({ clock: () => DAYTIME });
    const id = await queueMessage(deps, queue, { content: "wait" }, DAYTIME);
    const held = {
      ...deps,
      hooks: {
        finalFailure: [],
        variables: [],
        holdSend: [(row: { id: number }) => (row.id === id ? "Held: testing" : null)],
      },
    };
    await sendMessages(queue.takeSendJobs(), held);
    expect(await deps.db.get(sql`SELECT status, error_message AS reason FROM messages WHERE id = ${id}`)).toEqual({
      status: "held",
      reason: "Held: testing",
    });
    expect(await twilio.messages()).toEqual([]);
  });
});
