import type { Db } from "~/db/client.server";
import type { DomainContext } from "~/db/domain-context";
import type { MessageKind } from "~/db/schema";
import { extractVariables } from "./render";

// The send/receive pipeline's extension points (decision 028). The pipeline is a floor: it stores, checks and sends
// messages and knows nothing of the features built on it (campaigns, auto-responders, smart alerts, AI). Those plug
// in here, and one module registers them: the composition root, app/wiring/pipeline-hooks.server.ts.

/**
 * An inbound processor: runs once per batch of ordinary inbound replies (never STOP/HELP, which the pipeline
 * answers itself), after the messages are stored, in the order the root lists them — a later processor sees what
 * an earlier one wrote (campaigns attribute a reply before the responders answer it). Each must be idempotent on
 * the message ids: a redelivered job runs them all again.
 */
export type InboundProcessor = {
  /** For logs and the decision record: which feature this is. */
  name: string;
  /**
   * May answer `{ answered: ids }`: replies it answered itself (an appointment's "C"), which the processors after it
   * do not get — one answer per reply, and no alert for a reply already dealt with.
   */
  process: (ctx: DomainContext, messageIds: number[]) => Promise<unknown>;
};

/** The ids a processor says it answered (anything else it returns means none). */
export function answeredBy(result: unknown): ReadonlySet<number> {
  const ids = (result as { answered?: unknown } | null)?.answered;
  return new Set(Array.isArray(ids) ? ids.filter((i): i is number => typeof i === "number") : []);
}

/**
 * A person sent an SMS (kinds in HUMAN_KINDS: a quick send, an individual send, a conversation reply) to these
 * numbers; called once per producer call, after the rows are written and only when it created some.
 */
export type HumanSendHook = (ctx: { db: Db; now: Date }, phones: string[]) => Promise<unknown>;

/** What the send consumer knows of a queued message when it asks whether to hold it. */
export type HeldSendView = {
  id: number;
  kind: MessageKind;
  contactId: number | null;
  campaignId: number | null;
  campaignStatus: string | null;
};
/**
 * Asked by the consumer for each queued message before compliance and pacing: a reason to hold it (status `held`,
 * the reason as its note; whoever released it sets it `queued` again), or null to go on. Pure: it decides from the
 * row the batch read already has, so a hold costs no extra read.
 */
export type SendHold = (row: HeldSendView) => string | null;

/**
 * These messages reached their final `failed` (or `undelivered`) state: the send consumer gave up or the provider
 * refused, a status callback reported it, or the job was dead-lettered. Called after the rows are written, with
 * only the rows this call moved there (a replayed callback or redelivered job passes none again, or the same ids:
 * each hook must be idempotent on the ids).
 */
export type FinalFailureHook = (ctx: DomainContext, messageIds: number[]) => Promise<unknown>;

/**
 * Values a feature computes per contact for variables of source "computed" (decision 074: the Solar variables from
 * public data). The contact's own field of the same name wins; the provider fills the rest. Asked once per batch,
 * only for the contacts of messages that use one of its `variables`; answers by contact id.
 */
export type VariableProvider = {
  name: string;
  variables: readonly string[];
  values: (
    ctx: { db: Db; now: Date },
    contactIds: readonly number[],
  ) => Promise<ReadonlyMap<number, Readonly<Record<string, string>>>>;
};

/** Everything a feature can plug into the pipeline. */
export type PipelineHooks = {
  inbound: readonly InboundProcessor[];
  humanSend: readonly HumanSendHook[];
  holdSend: readonly SendHold[];
  finalFailure: readonly FinalFailureHook[];
  variables: readonly VariableProvider[];
};

/** A pipeline with nothing plugged in (tests of the pipeline alone). */
export const NO_PIPELINE_HOOKS: PipelineHooks = {
  inbound: [],
  humanSend: [],
  holdSend: [],
  finalFailure: [],
  variables: [],
};

const usesAny = (content: string, names: readonly string[]) =>
  content.includes("{{") && extractVariables(content).some((n) => names.includes(n));

/**
 * The providers' values for the messages that use them: each provider asked once, for the contacts whose message
 * (text or subject) names one of its variables; nothing is read when none does. Merged per contact.
 */
export async function providedVariables(
  providers: readonly VariableProvider[],
  ctx: { db: Db; now: Date },
  messages: readonly { contactId: number | null; content: string; subject?: string | null }[],
): Promise<Map<number, Record<string, string>>> {
  const out = new Map<number, Record<string, string>>();
  for (const p of providers) {
    const ids = [
      ...new Set(
        messages.flatMap((m) =>
          m.contactId != null && usesAny(`${m.content}\n${m.subject ?? ""}`, p.variables) ? [m.contactId] : [],
        ),
      ),
    ];
    if (!ids.length) continue;
    for (const [id, values] of await p.values(ctx, ids)) out.set(id, { ...out.get(id), ...values });
  }
  return out;
}

/** Runs the final-failure hooks in order (nothing to do without ids). */
export async function runFinalFailureHooks(
  hooks: readonly FinalFailureHook[],
  ctx: DomainContext,
  messageIds: readonly number[],
) {
  if (!messageIds.length) return;
  for (const hook of hooks) await hook(ctx, [...messageIds]);
}

/** A domain context with the pipeline's hooks: what every producer that a person drives is handed. */
export type PipelineContext = DomainContext & { hooks: PipelineHooks };
