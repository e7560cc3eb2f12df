import { inArray } from "drizzle-orm";
import { toContactValues, type ContactFields } from "~/contacts/contact-row.server";
import { createContact } from "~/contacts/create-contact.server";
import { US_AREA_CODES } from "~/contacts/phone";
import { upsertContactChunk, UPSERT_CHUNK } from "~/contacts/upsert-contacts.server";
import { deriveTimeZone } from "~/contacts/us-geo";
import { contacts } from "~/db/schema";
import { isWithinSendWindow } from "~/messaging/quiet-hours";
import { db } from "./factories";

// Test files may share one D1, so every generated phone and tag is unique to this run.
const used = new Set<string>();
const AREA_CODES = [...US_AREA_CODES];
/** A random, sendable US number (+1NXXNXXXXXX, never N11, never 555-01XX). */
export function uniquePhone(areaCodes: readonly string[] = AREA_CODES): string {
  for (;;) {
    const n = (lo: number, hi: number) => lo + Math.floor(Math.random() * (hi - lo + 1));
    const area = areaCodes[n(0, areaCodes.length - 1)]; // assessPhone refuses area codes not in service
    const exchange = `${n(2, 9)}${n(0, 9)}${n(2, 9)}`;
    const phone = `+1${area}${exchange}${String(n(0, 9999)).padStart(4, "0")}`;
    // Never 555: its 01XX lines are fictional and assessPhone refuses them (1 number in 64,000 drawn made a test fail).
    if (exchange !== "555" && !/^\+1(800|833|844|855|866|877|888|900)/.test(phone) && !used.has(phone)) {
      used.add(phone);
      return phone;
    }
  }
}

/**
 * A unique number whose area code's time zone is inside its calling hours at `now` (test texts are refused in the
 * recipient's quiet hours), or null in the one hour a day (~11:00 UTC) when no US zone is.
 */
export function phoneInCallingHours(now: Date = new Date()): string | null {
  const open = AREA_CODES.filter((a) => {
    const zone = deriveTimeZone({ phone: `+1${a}2345678` });
    return zone !== null && isWithinSendWindow(now, zone, null);
  });
  return open.length ? uniquePhone(open) : null;
}

/** A random lowercase tag of letters, handy as a searchable, collision-free surname or company. */
export function uniqueTag(prefix = "t"): string {
  return (
    prefix +
    crypto
      .randomUUID()
      .replace(/[^a-f]/g, "")
      .slice(0, 10)
  );
}

export function contactFields(overrides: Partial<ContactFields> = {}): ContactFields {
  return { firstName: "Casey", lastName: uniqueTag("Lee"), phone: uniquePhone(), ...overrides };
}

/** One contact through the domain (normalised, activity logged). */
export async function createTestContact(userId: number, overrides: Partial<ContactFields> = {}) {
  return createContact(db(), contactFields(overrides), { userId, ipAddress: null }, new Date());
}

/** Many contacts fast (json_each chunks); returns them oldest first. */
export async function seedContacts(
  count: number,
  make: (i: number) => Partial<ContactFields> = () => ({}),
  userId: number | null = null,
) {
  const rows = Array.from({ length: count }, (_, i) => toContactValues(contactFields(make(i))));
  for (let i = 0; i < rows.length; i += UPSERT_CHUNK) {
    await upsertContactChunk(db(), rows.slice(i, i + UPSERT_CHUNK), { mode: "skip", userId, now: new Date() });
  }
  const phones = rows.map((r) => r.phone);
  const out = [];
  for (let i = 0; i < phones.length; i += 90) {
    out.push(
      ...(await db()
        .select()
        .from(contacts)
        .where(inArray(contacts.phone, phones.slice(i, i + 90)))),
    );
  }
  return out.sort((a, b) => a.id - b.id);
}
