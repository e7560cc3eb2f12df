import { and, eq, isNotNull, not, sql, type SQL } from "drizzle-orm";
import { alias } from "drizzle-orm/sqlite-core";
import { z } from "zod";
import { activityRow } from "~/activity/log-activity.server";
import { assessPhone, normalizePhone } from "~/contacts/phone";
import { chunkByBytes } from "~/db/chunk-by-bytes.server";
import { runBatch, type Db } from "~/db/client.server";
import { activityLog, contacts, messages, users } from "~/db/schema";
import { AppError } from "~/lib/app-error";
import { findUnknownVariables, renderTemplate, requiredVariables } from "./render";
import { assertNoLinkShortener } from "./link-shorteners";
import { loadOrgSettings } from "./org-settings.server";
import { CUSTOM_FIELD_VARIABLES, variableSource, variableValues } from "./variable-values";
import { smsSegments } from "./segments";
import { exampleValues } from "~/contacts/variables";
import { createOutboundMessages } from "./create-outbound-messages.server";
import type { PipelineContext } from "./pipeline-hooks";
import type { Actor } from "~/lib/actor";
import { formatCount } from "~/lib/format-count";

// The checks and bookkeeping every send request shares (the routes parse the body with each request's schema).

/** What every send request needs: the database, the queue, the request's time and the pipeline's hooks (a person's send). */
export type SendRequestDeps = PipelineContext;

/** Any text field's outer bound (the fields' own, smaller limits follow in their `.pipe`): nothing longer is parsed. */
export const MAX_TEXT_FIELD = 50_000;
/** A required, trimmed text field whose every failure reads `message`. */
export const text = (message: string) =>
  z.preprocess(
    (v) => (typeof v === "string" ? v.trim() : v),
    z
      .string({ required_error: message, invalid_type_error: message })
      .min(1, message)
      .max(MAX_TEXT_FIELD, `Must be at most ${formatCount(MAX_TEXT_FIELD)} characters`),
  );
export const MAX_CONTENT = 5000;

/** Unknown {{tokens}} are refused before anything is written or sent. */
export function assertKnownVariables(...parts: (string | null | undefined)[]) {
  const unknown = [...new Set(parts.flatMap((p) => (p ? findUnknownVariables(p) : [])))];
  if (unknown.length)
    throw new AppError(
      "validation",
      `Unknown variable${unknown.length > 1 ? "s" : ""}: ${unknown.map((u) => `{{${u}}}`).join(", ")}`,
    );
}

/** Who a send goes to, for the variable check: existing contacts, or one bare number/address without a contact. */
export type VariableTarget =
  | { channel: "sms" | "email"; contactIds: readonly number[] }
  | { channel: "sms" | "email"; bare: { phone?: string | null; email?: string | null } }
  /** A segment's contacts, read when it is sent (decision 075): a contact lacking a value is left out then. */
  | { channel: "sms" | "email"; segment: true };

// SQL for a contact-held variable's value (c = contacts). Names come from this fixed list, never from input.
const CUSTOM = (name: string) =>
  `CASE WHEN json_valid(c.custom_fields) THEN json_extract(c.custom_fields, '$.${name}') END`;
// A column of the contact's next appointment (scheduled or confirmed, not begun): a seek of appointments_contact_idx.
const NEXT_APPOINTMENT = (column: "id" | "meeting_link") =>
  `(SELECT a.${column} FROM appointments a WHERE a.contact_id = c.id AND a.status IN ('scheduled', 'confirmed') AND a.starts_at >= CAST(strftime('%s', 'now') AS INTEGER) * 1000 ORDER BY a.starts_at LIMIT 1)`;
const CONTACT_SQL: Record<string, string> = {
  firstName: "c.first_name",
  lastName: "c.last_name",
  fullName: "c.first_name || c.last_name",
  email: "c.email",
  phone: "c.phone",
  address: "c.address",
  city: "c.city",
  state: "c.state",
  zipCode: "c.zip_code",
  company: "c.company",
  ...Object.fromEntries(CUSTOM_FIELD_VARIABLES.map((n) => [n, CUSTOM(n)])),
  // The Appointment variables come from the next booked appointment, else from the custom fields (as rendered).
  appointmentDate: `coalesce(${NEXT_APPOINTMENT("id")}, ${CUSTOM("appointmentDate")})`,
  appointmentTime: `coalesce(${NEXT_APPOINTMENT("id")}, ${CUSTOM("appointmentTime")})`,
  appointmentDateTime: `coalesce(${NEXT_APPOINTMENT("id")}, CASE WHEN trim(coalesce(${CUSTOM("appointmentDate")}, '')) <> '' AND trim(coalesce(${CUSTOM("appointmentTime")}, '')) <> '' THEN 'x' END)`,
  meetingLink: `coalesce(${NEXT_APPOINTMENT("meeting_link")}, ${CUSTOM("meetingLink")})`,
};

/** The contacts as `c`: CONTACT_SQL's expressions name their columns that way. */
const pc = alias(contacts, "c");

/** True (1) where the variable's contact value is missing or blank. */
const blank = (n: string) => sql`trim(coalesce(CAST(${sql.raw(CONTACT_SQL[n])} AS TEXT), '')) = ''`;

/** `<column> IN` one chunk of ids already written as JSON (chunkByBytes). */
const inJsonText = (column: typeof pc.id, json: string) => sql`${column} IN (SELECT value FROM json_each(${json}))`;

/**
 * The one place a send is checked for tokens it would leave empty: every {{variable}} used without a fallback
 * must have a value for every recipient — from the contact, their custom fields, the sender's profile, the
 * organisation settings or the clock (campaign variables only exist in campaign messages, which render them
 * from the campaign). Refused BEFORE anything is written, naming each token and how many recipients lack it.
 * One aggregate over the recipients (ids as one JSON parameter), whatever the number of tokens.
 */
export async function assertVariablesFilled(
  db: Db,
  senderId: number,
  target: VariableTarget,
  ...parts: (string | null | undefined)[]
) {
  assertKnownVariables(...parts);
  // Every send path comes through here: an SMS with a public shortener is refused with the variables (issue 29).
  assertNoLinkShortener(target.channel, ...parts);
  const required = [...new Set(parts.flatMap((p) => (p ? requiredVariables(p) : [])))];
  if (!required.length) return;
  const sources = new Set(required.map(variableSource));
  const org = sources.has("org") || required.includes("company") ? await loadOrgSettings(db) : {};
  const sender = sources.has("sender")
    ? ((await db
        .select({ firstName: users.firstName, lastName: users.lastName, email: users.email, phone: users.phone })
        .from(users)
        .where(eq(users.id, senderId))
        .get()) ?? null)
    : null;
  const fixed = variableValues({ sender, org, to: "bare" in target ? target.bare : undefined });

  const lacking: { variable: string; recipients: number }[] = [];
  let total: number;
  const perContact = required.filter((n) => {
    const src = variableSource(n);
    return (src === "contact" || src === "custom") && !(n === "company" && fixed.company);
  });
  if ("segment" in target) {
    total = 0;
  } else if ("bare" in target) {
    total = 1;
    for (const n of perContact) if (!fixed[n]?.trim()) lacking.push({ variable: n, recipients: 1 });
  } else {
    const blanks = Object.fromEntries(perContact.map((n, i) => [`v${i}`, sql<number | null>`sum(${blank(n)})`]));
    // 100,000 ids can be 1.7 MB of JSON: one aggregate per ~1 MB of them, in one batch, added up here.
    const parts = Array.from(chunkByBytes(new Set(target.contactIds)), ({ json }) =>
      db
        .select({ total: sql<number>`count(*)`, ...blanks })
        .from(pc)
        .where(and(inJsonText(pc.id, json), target.channel === "email" ? isNotNull(pc.email) : undefined)),
    );
    const sums = ((await runBatch(db, parts)) as Record<string, number | null>[][]).map((r) => r[0] ?? {});
    const sumOf = (key: string) => sums.reduce((n, r) => n + (r[key] ?? 0), 0);
    const row = {
      total: sumOf("total"),
      ...Object.fromEntries(perContact.map((_, i) => [`v${i}`, sumOf(`v${i}`)])),
    } as Record<string, number>;
    total = row.total;
    if (total === 0) return; // nobody to send to: the caller refuses that with its own message
    perContact.forEach((n, i) => {
      const count = row[`v${i}`] ?? 0;
      if (count > 0) lacking.push({ variable: n, recipients: count });
    });
  }
  for (const n of required) {
    const src = variableSource(n);
    if ((src === "sender" || src === "org" || src === "campaign") && !(n === "company") && !fixed[n]?.trim())
      lacking.push({ variable: n, recipients: total });
  }
  if (!lacking.length) return;
  lacking.sort((a, b) => required.indexOf(a.variable) - required.indexOf(b.variable));
  const of = (l: (typeof lacking)[number]) =>
    "segment" in target
      ? "any recipient"
      : `${formatCount(l.recipients)} of ${formatCount(total)} recipient${total === 1 ? "" : "s"}`;
  const first = lacking[0].variable;
  const why = lacking.some((l) => variableSource(l.variable) === "campaign")
    ? " (campaign variables have values only in campaign messages)"
    : "";
  const message =
    lacking.length === 1
      ? `{{${first}}} has no value for ${of(lacking[0])}${why}; fill it in or add a fallback such as {{${first}|…}}`
      : `No value for ${lacking.map((l) => `{{${l.variable}}} (${of(l)})`).join(", ")}${why}; fill them in or add fallbacks such as {{${first}|…}}`;
  throw new AppError("validation", message, {
    details: { missing: Object.fromEntries(lacking.map((l) => [l.variable, l.recipients])), recipients: total },
  });
}

/**
 * The picked contacts that have a value for every contact-held {{variable}} the text uses without a fallback — the
 * pre-send check's rule for "skipped: missing variable", applied when its Confirm sends (issue 24: Confirm must
 * send what the check promised, not refuse over a recipient the check already left out). Sender and organisation
 * variables are not per contact: assertVariablesFilled still refuses those.
 */
export async function contactsWithVariables(
  db: Db,
  contactIds: readonly number[],
  ...parts: (string | null | undefined)[]
): Promise<number[]> {
  const required = [...new Set(parts.flatMap((p) => (p ? requiredVariables(p) : [])))];
  const org = required.includes("company") ? await loadOrgSettings(db) : {};
  const perContact = required.filter((n) => {
    const src = variableSource(n);
    return (src === "contact" || src === "custom") && !(n === "company" && org.company?.trim());
  });
  if (!perContact.length) return [...new Set(contactIds)];
  const lacking = sql.join(
    perContact.map((n) => blank(n)),
    sql` OR `,
  );
  const reads = Array.from(chunkByBytes(new Set(contactIds)), ({ json }) =>
    db
      .select({ id: pc.id })
      .from(pc)
      .where(and(inJsonText(pc.id, json), not(sql`(${lacking})`))),
  );
  return ((await runBatch(db, reads)) as { id: number }[][]).flat().map((r) => r.id);
}

/**
 * The same rule as a WHERE term on the contacts as `c`: those with a value for every contact-held {{variable}} the
 * text uses without a fallback (undefined: the text needs none). A segment broadcast's resolution keeps to them.
 */
export async function withVariablesTerm(db: Db, ...parts: (string | null | undefined)[]): Promise<SQL | undefined> {
  const required = [...new Set(parts.flatMap((p) => (p ? requiredVariables(p) : [])))];
  const org = required.includes("company") ? await loadOrgSettings(db) : {};
  const perContact = required.filter((n) => {
    const src = variableSource(n);
    return (src === "contact" || src === "custom") && !(n === "company" && org.company?.trim());
  });
  if (!perContact.length) return undefined;
  return not(
    sql`(${sql.join(
      perContact.map((n) => blank(n)),
      sql` OR `,
    )})`,
  );
}

/** A number we would refuse to text is refused here, with the reason, before anything is written. */
export function sendablePhone(input: string) {
  const phone = normalizePhone(input);
  const check = assessPhone(phone);
  if (!check.sendable) throw new AppError("validation", check.reason);
  return phone;
}

/** The SMS encoding and segment count the client is told (rendered with example values). */
export const smsInfo = (content: string) => {
  const seg = smsSegments(renderTemplate(content, exampleValues()).text);
  return { encoding: seg.encoding, segments: seg.segments };
};

export async function contactIdByPhone(db: Db, phone: string) {
  return (await db.select({ id: contacts.id }).from(contacts).where(eq(contacts.phone, phone)).get())?.id ?? null;
}

export async function logSend(db: Db, actor: Actor, now: Date, details: Record<string, unknown>) {
  await db
    .insert(activityLog)
    .values(activityRow("send_message", { userId: actor.userId, ipAddress: actor.ipAddress, now, details }));
}

/** The message for a send key — the one just written, or the earlier one when a client retried with the same key. */
export async function messageByKey(db: Db, idempotencyKey: string) {
  return db
    .select({ id: messages.id, status: messages.status, phone: messages.phone, email: messages.email })
    .from(messages)
    .where(eq(messages.idempotencyKey, idempotencyKey))
    .get();
}

/**
 * One SMS to one number (a quick send's row, a manual test): variables known and filled for whoever the number
 * belongs to, then one pipeline message keyed `{kind}:{user}:{key}` (a client's retry returns the same one) and
 * the activity entry. Returns the message with its segment figures.
 */
export async function sendOneSms(
  { db, queue, now, hooks }: SendRequestDeps,
  input: { to: string; message: string; kind: "quick" | "test"; logType: string },
  actor: Actor,
  key: string,
) {
  assertKnownVariables(input.message);
  const phone = sendablePhone(input.to);
  const contactId = await contactIdByPhone(db, phone);
  await assertVariablesFilled(
    db,
    actor.userId,
    contactId ? { channel: "sms", contactIds: [contactId] } : { channel: "sms", bare: { phone } },
    input.message,
  );
  const idempotencyKey = `${input.kind}:${actor.userId}:${key}`;
  const [id] = await createOutboundMessages(
    db,
    queue,
    [
      {
        channel: "sms",
        kind: input.kind,
        phone,
        contactId,
        content: input.message,
        idempotencyKey,
        createdBy: actor.userId,
      },
    ],
    now,
    hooks,
  );
  await logSend(db, actor, now, { type: input.logType, to: phone, messageId: id });
  // Just written (or an earlier send with the same key): always there.
  return { ...(await messageByKey(db, idempotencyKey))!, ...smsInfo(input.message) };
}
