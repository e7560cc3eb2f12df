import { and, eq, exists, inArray, isNotNull, not, or, sql, type SQL } from "drizzle-orm";
import { alias } from "drizzle-orm/sqlite-core";
import { inJson } from "~/db/bulk-update.server";
import type { Db } from "~/db/client.server";
import { contacts, messages, suppressions, users } from "~/db/schema";
import { nextAllowedSendTime, quietHoursNote, stateForRules, stateRuleFor } from "./quiet-hours";
import { CAP_WINDOW_MS, capNote, cappedSentSince, nextUnderCap } from "./marketing-cap";
import {
  DEFAULT_RENDER_TIME_ZONE,
  findUnknownVariables,
  renderQuickSend,
  renderTemplate,
  requiredVariables,
} from "./render";
import { smsSegments } from "./segments";
import { hasOptOutWording } from "./keywords";
import { orgSettingsFrom, selectOrgSettings, smsSegmentPriceFrom } from "./org-settings.server";
import { variableSource, variableValues, type VariableSources } from "./variable-values";
import { providedVariables, type VariableProvider } from "./pipeline-hooks";
import { linkBaseFrom, withTrackedLinks } from "./tracked-links";
import { priceMicros } from "./sms-price";
import { assertNoLinkShortener, findLinkShortener } from "./link-shorteners";
import { formatCount } from "~/lib/format-count";
import { contactLocalTime } from "~/contacts/build-tcpa-packet.server";
import { csvCell } from "~/contacts/export";
import { loadContactScope, scopeCondition, type ContactViewer } from "~/contacts/contact-scope.server";

export const CHECK_CHUNK = 5000;

export interface BroadcastCheckInput {
  type: "sms" | "email";
  subject?: string | null;
  content: string;
  contactIds: number[];
  /** When the messages would go (now when absent): quiet hours are judged at this instant. */
  scheduledAt?: Date | null;
  /** PUBLIC_BASE_URL: where tracked links point without a link domain (decision 068); segments count the codes. */
  publicBaseUrl?: string;
  /** Who sends it ({{salesRep}} and kin when a contact has no owner): the person, or a campaign's creator. */
  senderId?: number | null;
  /** A campaign step's own values ({{campaignName}}, {{promoCode}}, {{offerExpiration}}). */
  campaign?: VariableSources["campaign"];
  /**
   * A campaign step's send window (the feature's nextInStepWindow): the moment in [planned, …) it lets the copy go in
   * the contact's zone, applied before the state's calling window.
   */
  window?: ((planned: number, timeZone: string | null) => number) | null;
  /**
   * What a contact without a value for a {{variable}} means: a broadcast's Confirm leaves them out ("skip"); a
   * campaign step goes with the blank or the fallback ("blank", counted in missingByVariable).
   */
  missingVariables?: "skip" | "blank";
  /**
   * The pipeline's variable providers (the Solar variables from public data, decision 074): the check renders each
   * copy with what the consumer will fill in, not a blank. None: those variables render as the contact's own field.
   */
  variables?: readonly VariableProvider[];
}

export interface BroadcastCheck {
  selected: number;
  /** Messages that will be written (selected contacts that exist, minus the skipped). */
  recipients: number;
  skipped: {
    total: number;
    optedOut: number;
    notSendable: number;
    /** SMS to contacts whose consent covers appointment texts only (decision 072). */
    noMarketingConsent: number;
    missingVariable: number;
    notFound: number;
  };
  /** variable name → how many recipients lack a value for it. */
  missingByVariable: Record<string, number>;
  unknownVariables: string[];
  segments: { perMessage: number; maxPerMessage: number; total: number; encoding: "GSM-7" | "UCS-2" | null };
  characters: number;
  quietHours: { deferred: number; until: string | null };
  /** SMS: the estimate — every segment that will go × the organisation's price per segment (null for email). */
  cost: { perSegment: string; total: string } | null;
  firstTouch: number;
  warnings: {
    code: "no_opt_out" | "link_shortener" | "unknown_variable" | "unregistered_sender" | "unfilled_variable";
    message: string;
  }[];
}

const pc = alias(contacts, "c");
const sup = alias(suppressions, "s");
const msg = alias(messages, "m");

/** The picked contacts with what the check needs: opted out (flag or suppression), first marketing touch. */
export function selectCheckRows(db: Db, ids: readonly number[], email: boolean, scope?: SQL) {
  const suppressed = (channel: SQL, address: typeof pc.phone | typeof pc.email) =>
    exists(
      db
        .select({ one: sql`1` })
        .from(sup)
        .where(and(channel, eq(sup.address, address))),
    );
  return db
    .select({
      id: pc.id,
      first_name: pc.firstName,
      last_name: pc.lastName,
      phone: pc.phone,
      email: pc.email,
      company: pc.company,
      address: pc.address,
      city: pc.city,
      state: pc.state,
      zip_code: pc.zipCode,
      time_zone: pc.timeZone,
      custom_fields: pc.customFields,
      sendable: pc.sendable,
      consent_purpose: pc.consentPurpose,
      opted_out: (email
        ? or(isNotNull(pc.emailUnsubscribedAt), suppressed(sql`${sup.channel} = 'email'`, pc.email))
        : or(isNotNull(pc.optedOutAt), suppressed(sql`${sup.channel} = 'sms'`, pc.phone)))!.mapWith(Boolean),
      first_touch: not(
        exists(
          db
            .select({ one: sql`1` })
            .from(msg)
            .where(and(eq(msg.contactId, pc.id), sql`${msg.direction} = 'outbound'`, sql`${msg.isMarketing} = 1`)),
        ),
      ).mapWith(Boolean),
    })
    .from(pc)
    .where(
      and(
        inJson(pc.id, ids),
        // The scope's condition names the contacts table itself, not this alias.
        scope
          ? inArray(
              pc.id,
              db
                .select({ id: contacts.id })
                .from(contacts)
                .where(and(inJson(contacts.id, ids), scope)),
            )
          : undefined,
      ),
    );
}

/** What the pipeline would do with one picked contact's copy, as the send consumer decides it. */
export type RecipientOutcome =
  | { kind: "send"; at: number }
  | { kind: "deferred"; at: number; why: string }
  | { kind: "opted_out" | "not_sendable" | "no_marketing_consent" }
  | { kind: "missing_variable"; missing: string[] };

export type AssessedRecipient = {
  contact: CheckRow;
  /** The state whose rules hold it (stateForRules). */
  state: string;
  outcome: RecipientOutcome;
  segments: { segments: number; encoding: "GSM-7" | "UCS-2" } | null;
  /** A campaign step's variables this contact has no value for: the copy goes with the blank or the fallback. */
  blanks?: string[];
};

type CheckRow = Awaited<ReturnType<typeof selectCheckRows>>[number];

/** The picked numbers' capped marketing texts since `since` (messages_capped_sent_idx, the consumer's predicate). */
export function selectCappedSends(db: Db, phones: string[], since: number) {
  return db
    .select({ phone: msg.phone, at: sql<number>`${msg.sentAt}`.mapWith(Number) })
    .from(msg)
    .where(and(inJson(msg.phone, phones), cappedSentSince(since)));
}

/** When each picked number was sent a capped marketing text in the last 24 hours (the Florida/Oklahoma cap's read). */
async function cappedSendsOf(db: Db, phones: string[], at: number) {
  const sentAts = new Map<string, number[]>();
  if (!phones.length) return sentAts;
  for (const r of await selectCappedSends(db, phones, at - CAP_WINDOW_MS))
    if (r.phone) sentAts.set(r.phone, [...(sentAts.get(r.phone) ?? []), r.at]);
  return sentAts;
}

/** What a check reads once, beside the recipients: the price, where tracked links point, the fixed variables' values. */
export type CheckContext = {
  price: string | null;
  linkBase: string | null;
  sources: Omit<VariableSources, "contact" | "to">;
};

/**
 * One read of the organisation settings (price, link domain, {{company}}/{{companyPhone}}/{{website}}) and, when the
 * text uses {{salesRep…}}, one of the sender's profile.
 */
export async function loadCheckContext(db: Db, input: BroadcastCheckInput): Promise<CheckContext> {
  const usesSender = [input.content, input.subject ?? ""].some((p) =>
    requiredVariables(p).some((n) => variableSource(n) === "sender"),
  );
  const [rows, sender] = await Promise.all([
    selectOrgSettings(db),
    usesSender && input.senderId
      ? db
          .select({ firstName: users.firstName, lastName: users.lastName, email: users.email, phone: users.phone })
          .from(users)
          .where(eq(users.id, input.senderId))
          .get()
      : undefined,
  ]);
  const sms = input.type === "sms";
  return {
    price: sms ? smsSegmentPriceFrom(rows) : null,
    linkBase: sms ? linkBaseFrom(rows, input.publicBaseUrl ?? "") : null,
    sources: { org: orgSettingsFrom(rows), sender: sender ?? null, campaign: input.campaign ?? null },
  };
}

/** Variables whose value is the contact's own (fields, custom fields): the ones that can lack a value per recipient. */
const perContact = (name: string) => {
  const src = variableSource(name);
  return src === "contact" || src === "custom";
};

/**
 * Each picked contact with what would happen to its copy at `at` (now, or the scheduled time), in the order the
 * send consumer decides: opted out, not sendable, a variable with no value, then a campaign step's send window, and
 * for a text the state's calling window in the contact's local time and Florida's/Oklahoma's 3 per 24 hours — a
 * deferral says until when and which rule. Reads the contacts in chunks (one JSON parameter each) and each chunk's
 * recent capped texts; writes nothing.
 */
export async function* assessRecipients(
  db: Db,
  input: BroadcastCheckInput,
  now: Date,
  /** Only the contacts in this scope (scopeCondition); the others are as if they did not exist. */
  scope?: SQL,
  ctx?: CheckContext,
): AsyncGenerator<AssessedRecipient[]> {
  const context = ctx ?? (await loadCheckContext(db, input));
  const ids = [...new Set(input.contactIds)];
  const at = input.scheduledAt && input.scheduledAt.getTime() > now.getTime() ? input.scheduledAt : now;
  const email = input.type === "email";
  for (let i = 0; i < ids.length; i += CHECK_CHUNK) {
    const rows = await selectCheckRows(db, ids.slice(i, i + CHECK_CHUNK), email, scope);
    const capped = email
      ? new Map<string, number[]>()
      : await cappedSendsOf(
          db,
          rows.flatMap((c) => (c.phone ? [c.phone] : [])),
          at.getTime(),
        );
    // As the consumer asks them: only for the contacts of a text that uses one of a provider's variables.
    const provided = await providedVariables(
      input.variables ?? [],
      { db, now: at },
      rows.map((c) => ({ contactId: c.id, content: input.content, subject: input.subject })),
    );
    yield rows.map((c) => assess(c, input, at, capped, context, provided.get(c.id)));
  }
}

function assess(
  c: CheckRow,
  input: BroadcastCheckInput,
  planned: Date,
  capped: Map<string, number[]>,
  ctx: CheckContext,
  provided: Readonly<Record<string, string>> | undefined,
): AssessedRecipient {
  const email = input.type === "email";
  const state = stateForRules(c.state, c.zip_code);
  const base = { contact: c, state, segments: null };
  if (c.opted_out) return { ...base, outcome: { kind: "opted_out" } };
  if (email ? !c.email : !c.sendable) return { ...base, outcome: { kind: "not_sendable" } };
  // A broadcast or campaign step is marketing: appointment-only consent does not carry it (the consumer's rule).
  if (!email && c.consent_purpose === "informational") return { ...base, outcome: { kind: "no_marketing_consent" } };
  // The step's window moves the copy first (the dispatcher), then the pipeline's rules judge that moment.
  const at = input.window ? new Date(input.window(planned.getTime(), c.time_zone)) : planned;
  // As the consumer renders it: the contact's fields and custom fields, the organisation's, the sender's, the campaign's.
  const values = variableValues({
    ...ctx.sources,
    provided,
    contact: {
      firstName: c.first_name,
      lastName: c.last_name,
      email: c.email,
      phone: c.phone,
      company: c.company,
      address: c.address,
      city: c.city,
      state: c.state,
      zipCode: c.zip_code,
      customFields: c.custom_fields,
    },
  });
  const opts = { now: at, timeZone: c.time_zone ?? DEFAULT_RENDER_TIME_ZONE };
  const body = renderTemplate(input.content, values, opts);
  const subj = email && input.subject ? renderTemplate(input.subject, values, opts) : null;
  const missing = [...new Set([...body.missing, ...(subj?.missing ?? [])])].filter(perContact);
  const blanks = input.missingVariables === "blank" ? missing : [];
  if (missing.length && !blanks.length) return { ...base, outcome: { kind: "missing_variable", missing } };
  if (email) return { ...base, blanks, outcome: { kind: "send", at: at.getTime() } };
  // As the consumer renders it: {{variables}}, then the quick-send #PLACEHOLDERS#, then its links as tracked links.
  const segments = smsSegments(
    withTrackedLinks(
      renderQuickSend(body.text, {
        firstName: c.first_name,
        lastName: c.last_name,
        company: c.company,
        address: c.address,
      }),
      ctx.linkBase,
    ),
  );
  const t = at.getTime();
  const windowAt = nextAllowedSendTime(at, c.time_zone, state).getTime();
  if (windowAt > t)
    return { ...base, blanks, segments, outcome: { kind: "deferred", at: windowAt, why: quietHoursNote(state) } };
  const rule = stateRuleFor(state);
  if (rule.per24Hours && c.phone) {
    const next = nextUnderCap(capped.get(c.phone) ?? [], rule.per24Hours, t);
    if (next > t)
      return {
        ...base,
        blanks,
        segments,
        outcome: {
          kind: "deferred",
          at: nextAllowedSendTime(new Date(next), c.time_zone, state).getTime(),
          why: capNote(rule),
        },
      };
  }
  return { ...base, blanks, segments, outcome: { kind: "send", at: t } };
}

/**
 * The pre-send check shown before any broadcast or quick send: who will get it, who will be skipped and why,
 * segments, deferrals (the state's calling window, Florida's/Oklahoma's cap) and content warnings — the sum of
 * assessRecipients, which the downloadable list shows one row each. O(recipients); writes nothing.
 */
export async function checkBroadcast(db: Db, input: BroadcastCheckInput, now: Date): Promise<BroadcastCheck> {
  const ids = [...new Set(input.contactIds)];
  const at = input.scheduledAt && input.scheduledAt.getTime() > now.getTime() ? input.scheduledAt : now;
  const skipped = { total: 0, optedOut: 0, notSendable: 0, noMarketingConsent: 0, missingVariable: 0, notFound: 0 };
  const missingByVariable: Record<string, number> = {};
  let recipients = 0;
  let totalSegments = 0;
  let maxSegments = 0;
  let deferred = 0;
  let until: number | null = null;
  let firstTouch = 0;
  let found = 0;
  let encoding: "GSM-7" | "UCS-2" | null = null;
  const email = input.type === "email";
  // An SMS with a public shortener is refused when sent (issue 29), so the check refuses it too, before any read.
  assertNoLinkShortener(input.type, input.content);
  const ctx = await loadCheckContext(db, input);
  const { price, linkBase } = ctx;
  for await (const chunk of assessRecipients(db, input, now, undefined, ctx)) {
    found += chunk.length;
    for (const { contact: c, outcome: o, segments: seg, blanks } of chunk) {
      for (const m of blanks ?? []) missingByVariable[m] = (missingByVariable[m] ?? 0) + 1;
      if (o.kind === "opted_out") skipped.optedOut++;
      else if (o.kind === "not_sendable") skipped.notSendable++;
      else if (o.kind === "no_marketing_consent") skipped.noMarketingConsent++;
      else if (o.kind === "missing_variable") {
        skipped.missingVariable++;
        for (const m of o.missing) missingByVariable[m] = (missingByVariable[m] ?? 0) + 1;
      } else {
        recipients++;
        if (c.first_touch) firstTouch++;
        if (seg) {
          totalSegments += seg.segments;
          maxSegments = Math.max(maxSegments, seg.segments);
          if (seg.encoding === "UCS-2" || encoding === null) encoding = seg.encoding;
        }
        if (o.kind === "deferred") {
          deferred++;
          until = until === null ? o.at : Math.max(until, o.at);
        }
      }
    }
  }
  skipped.notFound = ids.length - found;
  skipped.total =
    skipped.optedOut + skipped.notSendable + skipped.noMarketingConsent + skipped.missingVariable + skipped.notFound;

  const sample = renderTemplate(input.content, {}, { now: at });
  const unknownVariables = [
    ...new Set([...findUnknownVariables(input.content), ...(input.subject ? findUnknownVariables(input.subject) : [])]),
  ];
  const warnings: BroadcastCheck["warnings"] = [];
  if (unknownVariables.length)
    warnings.push({
      code: "unknown_variable",
      message: `Unknown variable${unknownVariables.length > 1 ? "s" : ""}: ${unknownVariables.map((u) => `{{${u}}}`).join(", ")}`,
    });
  const unfilled = unfilledVariables(input, ctx);
  if (unfilled.length)
    warnings.push({
      code: "unfilled_variable",
      message: `No value for ${unfilled.map((u) => `{{${u.name}}}`).join(", ")} (${[...new Set(unfilled.map((u) => u.where))].join("; ")}): fill ${unfilled.length > 1 ? "them" : "it"} in or add a fallback such as {{${unfilled[0].name}|…}}.`,
    });
  if (!email && firstTouch > 0 && !hasOptOutWording(input.content)) {
    warnings.push({
      code: "no_opt_out",
      message: `${formatCount(firstTouch)} recipient${firstTouch === 1 ? " gets" : "s get"} a first marketing message without opt-out wording: add "Reply STOP to opt out".`,
    });
  }
  // Email is not carrier-filtered, but spam filters weigh shorteners too: a warning there.
  const shortener = email ? findLinkShortener(`${input.subject ?? ""}\n${input.content}`) : null;
  if (shortener)
    warnings.push({
      code: "link_shortener",
      message: `The text holds a public link shortener (${shortener}); spam filters distrust them. Use a full or branded link.`,
    });
  return {
    selected: ids.length,
    recipients,
    skipped,
    missingByVariable,
    unknownVariables,
    segments: email
      ? { perMessage: 0, maxPerMessage: 0, total: 0, encoding: null }
      : {
          perMessage: smsSegments(withTrackedLinks(sample.text, linkBase)).segments,
          maxPerMessage: maxSegments,
          total: totalSegments,
          encoding,
        },
    characters: sample.text.length,
    quietHours: { deferred, until: until === null ? null : new Date(until).toISOString() },
    cost: price ? costOf(totalSegments, price) : null,
    firstTouch,
    warnings,
  };
}

const WHERE_FILLED: Record<string, string> = {
  sender: "the sender's profile",
  org: "the Organisation settings",
  campaign: "the campaign's details",
};

/**
 * The {{variables}} without a fallback that are the same for every recipient and have no value — the sender's, the
 * organisation's or the campaign's (a broadcast's Confirm refuses them; a campaign step would go with blanks).
 */
function unfilledVariables(input: BroadcastCheckInput, ctx: CheckContext) {
  const fixed = variableValues(ctx.sources);
  const names = [...new Set([input.content, input.subject ?? ""].flatMap(requiredVariables))];
  return names.flatMap((name) => {
    const src = variableSource(name);
    if (!src || !(src in WHERE_FILLED) || fixed[name]?.trim()) return [];
    return [{ name, where: WHERE_FILLED[src] }];
  });
}

/** Segments × the price per segment, in exact micro-dollars, shown in whole cents (rounded up: an estimate to budget by). */
export function costOf(segments: number, perSegment: string) {
  const micros = segments * (priceMicros(perSegment) ?? 0);
  return { perSegment, total: (Math.ceil(micros / 10_000) / 100).toFixed(2) };
}

const RECIPIENT_COLUMNS = [
  "contact_id",
  "name",
  "to",
  "state_rules",
  "time_zone",
  "outcome",
  "arrives_utc",
  "arrives_contact_local",
  "rule",
  "segments",
  "cost_usd",
];

const OUTCOME_LABEL: Record<RecipientOutcome["kind"], string> = {
  send: "Sends",
  deferred: "Deferred",
  opted_out: "Skipped: opted out",
  not_sendable: "Skipped: not sendable",
  no_marketing_consent: "Skipped: consent covers appointment texts only",
  missing_variable: "Skipped: missing a variable",
};

/**
 * The pre-send check one line per picked contact (issue 29 item 4), as CSV: when the copy would reach the contact —
 * in UTC and their local time — or why not, the rule that holds it, and its segments. Picked ids that are no
 * contact come last as "Not found". Cells formula-safe, CRLF.
 */
export async function recipientsCsv(
  db: Db,
  input: BroadcastCheckInput,
  now: Date,
  viewer: ContactViewer,
): Promise<string> {
  // Names and numbers: only of the contacts the person sees (decision 048); the rest read "Not found".
  const scope = scopeCondition(await loadContactScope(db, viewer));
  assertNoLinkShortener(input.type, input.content);
  const ctx = await loadCheckContext(db, input);
  const perSegment = ctx.price ? (priceMicros(ctx.price) ?? 0) : 0;
  const lines = [RECIPIENT_COLUMNS.map(csvCell).join(",")];
  const seen = new Set<number>();
  for await (const chunk of assessRecipients(db, input, now, scope, ctx)) {
    for (const { contact: c, state, outcome: o, segments, blanks } of chunk) {
      seen.add(c.id);
      const at = o.kind === "send" || o.kind === "deferred" ? o.at : null;
      lines.push(
        [
          String(c.id),
          [c.first_name, c.last_name].filter(Boolean).join(" "),
          input.type === "email" ? c.email : c.phone,
          state,
          c.time_zone,
          OUTCOME_LABEL[o.kind],
          at === null ? "" : new Date(at).toISOString(),
          at === null ? "" : contactLocalTime(at, c.time_zone),
          [
            o.kind === "deferred" ? o.why : "",
            o.kind === "missing_variable" ? o.missing.map((m) => `{{${m}}}`).join(" ") : "",
            blanks?.length ? `Blank: ${blanks.map((m) => `{{${m}}}`).join(" ")}` : "",
          ]
            .filter(Boolean)
            .join("; "),
          segments ? String(segments.segments) : "",
          // Only what will be sent costs anything: a skipped contact's cell stays empty.
          segments && (o.kind === "send" || o.kind === "deferred")
            ? ((segments.segments * perSegment) / 1_000_000).toFixed(4)
            : "",
        ]
          .map(csvCell)
          .join(","),
      );
    }
  }
  for (const id of new Set(input.contactIds))
    if (!seen.has(id)) lines.push([String(id), "", "", "", "", "Not found", "", "", "", "", ""].map(csvCell).join(","));
  return lines.join("\r\n") + "\r\n";
}
