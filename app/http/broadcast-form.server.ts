import { z } from "zod";
import type { Db } from "~/db/client.server";
import { loadContactScope, type ContactViewer } from "~/contacts/contact-scope.server";
import { readSegmentContactIds } from "~/segments/segment-members.server";
import { localToUtc } from "~/campaigns/local-time";
import { AppError } from "~/lib/app-error";
import { parseId } from "~/lib/ids";
import { broadcastSchema } from "~/messaging/send-broadcast.server";
import { MAX_PICKED } from "~/playground/load-testing-playground.server";
import { parseInput } from "./api.server";
import { asList } from "./form-schema";

const text = z.string().default("");

/**
 * The broadcast form's fields: the message, an optional time (ZonedDateTimeField: a local time and its IANA zone)
 * and the picked contacts (ContactPicker's `contactIds`). The Testing Playground posts them to check and to send,
 * and to download the pre-send check's recipient list.
 */
export const broadcastFields = {
  type: z.unknown(),
  subject: text,
  content: text,
  scheduledAt: text,
  tz: text,
  contactIds: asList(z.array(z.unknown())),
  /** A saved segment instead of picked contacts (decision 075); "" = the picked contacts. */
  segmentId: text,
  nonce: text,
};
export type BroadcastForm = z.output<z.ZodObject<typeof broadcastFields>>;

const pickedIds = (raw: unknown[]) =>
  [...new Set(raw.map(parseId).filter((x): x is number => x !== null))].slice(0, MAX_PICKED);

/** The broadcast form → sendBroadcast's input: the time from its zone (a time that does not parse is refused on its field). */
export function broadcastInput(f: BroadcastForm) {
  let scheduledAt: string | null = null;
  if (f.scheduledAt.trim()) {
    const at = localToUtc(f.scheduledAt, f.tz || "UTC");
    if (!at) throw new AppError("validation", "Please enter a valid scheduled time", { field: "scheduledAt" });
    scheduledAt = at.toISOString();
  }
  return parseInput(broadcastSchema, {
    type: f.type === "email" ? "email" : "sms",
    subject: f.subject || null,
    content: f.content,
    ...(f.segmentId.trim() ? { segmentId: f.segmentId.trim() } : { contactIds: pickedIds(f.contactIds) }),
    scheduledAt,
  });
}

/**
 * Who a pre-send check judges: the picked contacts, or the segment's contacts as this person sees them now (the send
 * reads the segment again when it goes out, decision 075).
 */
export async function checkedRecipients(
  db: Db,
  input: { contactIds?: number[]; segmentId?: number },
  viewer: ContactViewer,
  now: Date,
): Promise<number[]> {
  if (input.segmentId === undefined) return input.contactIds ?? [];
  return readSegmentContactIds(db, input.segmentId, await loadContactScope(db, viewer), now);
}
