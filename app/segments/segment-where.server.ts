import { and, eq, exists, gte, inArray, isNotNull, isNull, notExists, or, sql, type SQL } from "drizzle-orm";
import type { SQLiteColumn } from "drizzle-orm/sqlite-core";
import { contactTags, contacts, conversations } from "~/db/schema";
import type { FieldCondition, SegmentDefinition, SegmentField } from "./segment-definition";

const DAY_MS = 86_400_000;

const COLUMNS: Record<SegmentField, SQLiteColumn> = {
  zipCode: contacts.zipCode,
  state: contacts.state,
  city: contacts.city,
  utilityName: contacts.utilityName,
  company: contacts.company,
  firstName: contacts.firstName,
  lastName: contacts.lastName,
  email: contacts.email,
  address: contacts.address,
};

/** %, _ and \ escaped for `LIKE … ESCAPE '\'`: a typed value is matched as written, case-blind like the search. */
const escapeLike = (v: string) => v.replace(/[%_\\]/g, (c) => "\\" + c);
const like = (col: SQLiteColumn, pattern: string) => sql`${col} LIKE ${pattern} ESCAPE '\\'`;

function fieldTerm(f: FieldCondition): SQL {
  const col = COLUMNS[f.field];
  switch (f.op) {
    case "empty":
      return sql`coalesce(${col}, '') = ''`;
    case "notEmpty":
      return sql`coalesce(${col}, '') <> ''`;
    case "equals":
      return like(col, escapeLike(f.value));
    case "startsWith":
      return like(col, `${escapeLike(f.value)}%`);
    case "contains":
      return like(col, `%${escapeLike(f.value)}%`);
  }
}

/** The contact's conversation rows (conversations_contact_idx): one seek per contact tested. */
const conversationOf = (...terms: (SQL | undefined)[]) =>
  sql`(SELECT 1 FROM ${conversations} WHERE ${and(eq(conversations.contactId, contacts.id), ...terms)})`;

/**
 * The definition as one WHERE term on `contacts` (undefined: every contact). Stages use contacts_stage_idx, tags
 * contact_tags_tag_idx (an IN list SQLite can drive from), the last touch and reply state one seek of the contact's
 * conversation; the field tests are read from the row. Opted-out contacts are in a segment like any other (the "opted
 * out" consent test needs them); the send pipeline never texts them.
 */
export function segmentWhere(d: SegmentDefinition, now: Date): SQL | undefined {
  const terms: (SQL | undefined)[] = [];
  if (d.stages.length) terms.push(inArray(contacts.stage, d.stages));
  if (d.tags.length)
    terms.push(
      inArray(
        contacts.id,
        sql`(SELECT ${contactTags.contactId} FROM ${contactTags} WHERE ${inArray(contactTags.tag, d.tags)})`,
      ),
    );
  if (d.owner !== null)
    terms.push(d.owner === "none" ? isNull(contacts.ownerUserId) : eq(contacts.ownerUserId, d.owner));
  if (d.touch) {
    const since = new Date(now.getTime() - d.touch.days * DAY_MS);
    const recent = conversationOf(gte(conversations.lastMessageAt, since));
    terms.push(d.touch.op === "none" ? notExists(recent) : exists(recent));
  }
  if (d.reply === "replied") terms.push(exists(conversationOf(isNotNull(conversations.lastInboundId))));
  if (d.reply === "never") terms.push(notExists(conversationOf(isNotNull(conversations.lastInboundId))));
  if (d.reply === "waiting") terms.push(exists(conversationOf(eq(conversations.needsReply, true))));
  switch (d.consent) {
    case "marketing":
      terms.push(
        isNull(contacts.optedOutAt),
        or(isNull(contacts.consentPurpose), eq(contacts.consentPurpose, "marketing")),
      );
      break;
    case "informational":
      terms.push(isNull(contacts.optedOutAt), eq(contacts.consentPurpose, "informational"));
      break;
    case "recorded":
      terms.push(isNotNull(contacts.consentAt));
      break;
    case "missing":
      terms.push(isNull(contacts.consentAt));
      break;
    case "optedOut":
      terms.push(isNotNull(contacts.optedOutAt));
      break;
  }
  if (d.bill === "received") terms.push(isNotNull(contacts.billReceivedAt));
  if (d.bill === "missing") terms.push(isNull(contacts.billReceivedAt));
  if (d.bill === "known") terms.push(or(isNotNull(contacts.monthlyBillCents), isNotNull(contacts.monthlyKwh)));
  for (const f of d.fields) terms.push(fieldTerm(f));
  return terms.length ? and(...terms) : undefined;
}
