import { and, eq, sql } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import { normalizePhone } from "~/contacts/phone";
import { runBatch, type Db } from "~/db/client.server";
import { contacts } from "~/db/schema/contacts";
import { messages } from "~/db/schema/messages";
import { messageMedia } from "~/db/schema/message-media";
import { smsKeywordState } from "~/db/schema/sms-keyword-state";
import type { DomainContext } from "~/db/domain-context";
import type { InboundJob, InboundMediaJob } from "~/jobs/jobs";
import { suppressStatements, unsuppressStatements } from "./compliance.server";
import { classifyInbound, isPlainWordsOptOut, keywordReply, PLAIN_WORDS_REASON, type InboundKeyword } from "./keywords";
import type { JobQueue } from "~/lib/job-queue";
import { createOutboundMessages } from "./create-outbound-messages.server";
import { MAX_MEDIA_PER_MESSAGE } from "./fetch-inbound-media.server";
import { loadKeywordBrand, loadStopScopeSettings } from "./org-settings.server";
import { answeredBy, type PipelineHooks } from "./pipeline-hooks";
import { keywordWon, newerKeywordWins } from "./sms-keyword-state.server";
import { optOutScope } from "./stop-scope";

export type InboundSms = {
  sid: string;
  from: string;
  to: string;
  body: string;
  /** Twilio Advanced Opt-Out: present when Twilio recognised (and itself answered) STOP/START/HELP. */
  optOutType?: string | null;
  /** An MMS's files as the webhook named them (MediaUrlN, MediaContentTypeN), fetched later by a job (decision 057). */
  media?: { url: string; contentType: string }[];
};

/** Twilio's longest inbound message (a concatenated SMS of 10 segments); a longer Body is not an SMS (issue 23). */
export const MAX_INBOUND_BODY = 1600;
export const TRUNCATED_MARK = " […]";

/** The Body as stored: at most MAX_INBOUND_BODY characters, a longer one cut with a visible mark. */
export function capInboundBody(body: string): string {
  return body.length > MAX_INBOUND_BODY ? body.slice(0, MAX_INBOUND_BODY) + TRUNCATED_MARK : body;
}

export type InboundResult = { messageId: number | null; duplicate: boolean; keyword: InboundKeyword | null };

/**
 * Stores an inbound SMS once (de-duplicated on the provider's MessageSid), applies opt-out/opt-in at once,
 * sends at most one compliance reply (none when Twilio already answered), and hands ordinary replies to the
 * reply processors through the queue.
 */
export async function receiveInboundSms(db: Db, queue: JobQueue, msg: InboundSms, now: Date): Promise<InboundResult> {
  const t = now.getTime();
  // Every field bounded before it is stored: a signed request can still carry anything (Twilio SIDs are 34 characters).
  msg = {
    ...msg,
    body: capInboundBody(msg.body),
    from: msg.from.slice(0, 32),
    to: msg.to.slice(0, 32),
    sid: msg.sid.slice(0, 64),
  };
  const phone = normalizePhone(msg.from);
  // A one-word keyword first; then a plain-words request to stop ("Stop texting me"), honoured the same way at once.
  const exact = classifyInbound(msg.body, msg.optOutType);
  const plainWords = exact === null && isPlainWordsOptOut(msg.body);
  const keyword: InboundKeyword | null = exact ?? (plainWords ? "stop" : null);
  const contact = await db.select({ id: contacts.id }).from(contacts).where(eq(contacts.phone, phone)).get();
  const idempotencyKey = "in:" + msg.sid;

  const insert = db
    .insert(messages)
    .values({
      channel: "sms",
      direction: "inbound",
      kind: "inbound",
      status: "received",
      contactId: contact?.id ?? null,
      phone,
      fromAddress: msg.to,
      content: msg.body,
      idempotencyKey,
      twilioSid: msg.sid,
      provider: "twilio",
      isMarketing: false,
      isTest: false,
      attempts: 0,
      scheduledAt: now,
      createdAt: now,
      updatedAt: now,
    })
    .onConflictDoNothing({ target: messages.idempotencyKey });
  // Keyword effects apply only when this inbound row is new AND newer than the last keyword applied to the
  // number, so a replayed START (a Twilio retry, a captured request) never undoes a later STOP, nor a replayed
  // STOP a later START. "Newer" is arrival order of first-seen MessageSids (messages.id): Twilio's inbound
  // webhook carries no timestamp, so a message first delivered late counts from when it arrived.
  // sms_keyword_state records the winning keyword's message; the statement runs right after the insert so
  // changes() is the insert's (0 on a duplicate sid), and the per-request nonce tells the opt-out
  // statements that follow, in the same batch, whether this request won.
  const nonce = crypto.randomUUID();
  const keywordState: BatchItem<"sqlite">[] =
    keyword === "stop" || keyword === "start"
      ? [
          db
            .insert(smsKeywordState)
            .select(
              db
                .select({
                  address: sql<string>`${phone}`.as("address"),
                  keyword: sql<"stop" | "start">`${keyword}`.as("keyword"),
                  messageId: messages.id,
                  messageSid: sql<string>`${msg.sid}`.as("message_sid"),
                  nonce: sql<string>`${nonce}`.as("nonce"),
                  appliedAt: sql<Date>`${t}`.as("applied_at"),
                })
                .from(messages)
                .where(and(eq(messages.idempotencyKey, idempotencyKey), sql`changes() > 0`)),
            )
            .onConflictDoUpdate(newerKeywordWins),
        ]
      : [];
  const won = keywordWon(db, phone, nonce);
  // What the STOP covers depends on the number it reached (decision 072): read only for a STOP.
  const scope = keyword === "stop" ? optOutScope(await loadStopScopeSettings(db), msg.to, now) : "all";
  const compliance: BatchItem<"sqlite">[] =
    keyword === "stop"
      ? suppressStatements(
          db,
          { channel: "sms", address: phone, reason: plainWords ? PLAIN_WORDS_REASON : "STOP", source: msg.sid, scope },
          now,
          won,
        )
      : keyword === "start"
        ? unsuppressStatements(db, "sms", phone, now, won)
        : [];
  // An MMS's files, recorded `pending` with the message (the same transaction; a replayed webhook adds none: the
  // message's (id, position) is unique) and fetched into R2 by the inbound-media job.
  const mediaRows = (msg.media ?? []).slice(0, MAX_MEDIA_PER_MESSAGE).map((m, position) => ({
    position,
    url: m.url.slice(0, 1000),
    type: m.contentType.slice(0, 100),
  }));
  const media: BatchItem<"sqlite">[] = mediaRows.length
    ? [
        db
          .insert(messageMedia)
          .select(
            db
              // Every column in the table's order (drizzle's insert … select asks for them all).
              .select({
                id: sql<number>`NULL`.as("id"),
                messageId: messages.id,
                position: sql<number>`json_extract(j.value, '$.position')`.as("position"),
                sourceUrl: sql<string>`json_extract(j.value, '$.url')`.as("source_url"),
                contentType: sql<string>`json_extract(j.value, '$.type')`.as("content_type"),
                status: sql<"pending">`'pending'`.as("status"),
                r2Key: sql<null>`NULL`.as("r2_key"),
                sizeBytes: sql<null>`NULL`.as("size_bytes"),
                error: sql<null>`NULL`.as("error"),
                createdAt: sql<Date>`${t}`.as("created_at"),
                updatedAt: sql<Date>`${t}`.as("updated_at"),
              })
              .from(messages)
              .innerJoin(sql`json_each(${JSON.stringify(mediaRows)}) AS j`, sql`1 = 1`)
              .where(eq(messages.idempotencyKey, idempotencyKey)),
          )
          .onConflictDoNothing(),
      ]
    : [];
  // The insert and the opt-out commit together: a STOP is never stored without taking effect.
  const [inserted, , suppressionChange] = (await runBatch(db, [insert, ...keywordState, ...compliance, ...media])) as (
    | D1Result
    | undefined
  )[];
  if ((inserted?.meta?.changes ?? 0) === 0) return { messageId: null, duplicate: true, keyword };
  // The first compliance statement inserts (STOP) or deletes (START) the suppression: whether it changed a row
  // says, inside the same transaction, if this message changed the number's state — so two STOPs racing
  // still get one confirmation between them.
  const stateChanged = (suppressionChange?.meta?.changes ?? 0) > 0;
  const row = await db
    .select({ id: messages.id })
    .from(messages)
    .where(eq(messages.idempotencyKey, idempotencyKey))
    .get();
  const messageId = row!.id;

  // Twilio already replied to its own keywords; otherwise one answer per change of state (and every HELP).
  const answers =
    !msg.optOutType && (keyword === "help" || ((keyword === "stop" || keyword === "start") && stateChanged));
  const reply = answers && keyword ? keywordReply(keyword, await loadKeywordBrand(db)) : null;
  if (reply) {
    await createOutboundMessages(
      db,
      queue,
      [
        {
          channel: "sms",
          kind: "compliance",
          phone,
          contactId: contact?.id ?? null,
          content: reply,
          idempotencyKey: `compliance:${keyword}:${msg.sid}`,
        },
      ],
      now,
    );
  }
  // Ordinary replies go to the reply processors. So does a "YES"/"START"/"HELP" from a number that was never
  // opted out: for a lead that is an answer, not a command.
  const isCommand = keyword === "stop" || keyword === "help" || (keyword === "start" && stateChanged);
  if (!isCommand) {
    const job: InboundJob = { v: 1, type: "inbound", messageId };
    await queue.send(job, { contentType: "json" });
  }
  if (mediaRows.length) {
    const job: InboundMediaJob = { v: 1, type: "inbound-media", messageId };
    await queue.send(job, { contentType: "json" });
  }
  return { messageId, duplicate: false, keyword };
}

/**
 * The inbound job (one per ordinary reply, batched by the queue): the registered inbound processors, in their
 * declared order (app/wiring lists them: campaigns attribute the reply and stop sequences, then auto-responders
 * and smart alerts answer it). The pipeline itself only stored the message; it knows none of them. A processor that
 * answered a reply itself says so (`answeredBy`), and the later ones get the rest.
 */
export async function processInboundMessages(
  ctx: DomainContext,
  messageIds: number[],
  processors: PipelineHooks["inbound"],
) {
  let ids = messageIds;
  for (const processor of processors) {
    if (!ids.length) return;
    const answered = answeredBy(await processor.process(ctx, ids));
    if (answered.size) ids = ids.filter((id) => !answered.has(id));
  }
}
