import { sql } from "drizzle-orm";
import { afterEach } from "vitest";
import type { ContactFields } from "~/contacts/contact-row.server";
import { receiveInboundSms } from "~/messaging/receive-inbound.server";
import { createResponder } from "~/responders/create-responder.server";
import { parseResponder } from "~/responders/responder-schema";
import type { ReplyDeps } from "~/responders/reply-deps";
import { classifierFor } from "~/wiring/ai-chain.server";
import { createTestContact, uniqueTag } from "./contact-factory";
import { createTestUser, db } from "./factories";
import { appHooks, pipeline, queueMessage, runInboundJob } from "./messaging-harness";

/**
 * One contact (Rosa, in Arizona) texting in through the same inbound path the queue runs: the webhook's work
 * (receiveInboundSms), then the inbound job with the auto-responders and smart alerts. `replies` overrides the
 * reply providers (e.g. `capLimits`); with none, the caps are the organisation's defaults.
 */
export async function replyWorld(
  now: Date,
  opts: { contact?: Partial<ContactFields>; replies?: Partial<Omit<ReplyDeps, "db" | "now">> } = {},
) {
  const p = await pipeline({ clock: () => now });
  const user = await createTestUser();
  const contact = await createTestContact(user.id, { firstName: "Rosa", state: "AZ", ...opts.contact });
  const replies: Omit<ReplyDeps, "db" | "now"> = {
    queue: p.queue,
    config: { publicBaseUrl: "https://helio.test", salesAlertEmail: "sales@helio.test" },
    classify: classifierFor({}, db()),
    ...opts.replies,
  };
  /** The webhook's work then the inbound job's, as the queue would run them. */
  async function inbound(body: string, at = now, sid = "SM" + crypto.randomUUID().replace(/-/g, "")) {
    const res = await receiveInboundSms(p.deps.db, p.queue, { sid, from: contact.phone, to: "+16025550100", body }, at);
    p.queue.sent.splice(0);
    if (res.messageId) await runInboundJob(p.deps.db, [res.messageId], at, replies);
    return { ...res, sid };
  }
  /** Someone on the team texts the contact: a human send, so the pipeline's human-send hooks run. */
  const personReplies = (content: string, at = now) =>
    queueMessage(
      p.deps,
      p.queue,
      { kind: "individual", phone: contact.phone, contactId: contact.id, content },
      at,
      appHooks,
    );
  return { ...p, user, contact, inbound, personReplies, replies };
}

/**
 * A factory for the auto-responders a test file creates, each on its own fresh keyword; after each test they are
 * switched off (test files may share one D1, and an active responder would answer another file's replies).
 */
export function respondersMadeHere(createdAt: Date) {
  const created: number[] = [];
  afterEach(async () => {
    if (created.length)
      await db().run(
        sql`UPDATE auto_responders SET is_active = 0 WHERE id IN (SELECT value FROM json_each(${JSON.stringify(created.splice(0))}))`,
      );
  });
  async function responder(overrides: Record<string, unknown> = {}) {
    const word = uniqueTag("kw");
    const r = await createResponder(
      db(),
      parseResponder({
        name: `R ${word}`,
        keywords: [word],
        responses: { primary: `Thanks! (${word})`, followUp: `Any questions? (${word})` },
        ...overrides,
      }),
      createdAt,
    );
    created.push(r.id);
    return { r, word };
  }
  /** `responder.created`: this test's responders so far. */
  return Object.assign(responder, { created });
}
