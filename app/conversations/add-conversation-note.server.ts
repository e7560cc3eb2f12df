import { and, eq, or, sql } from "drizzle-orm";
import { inJson } from "~/db/bulk-update.server";
import { z } from "zod";
import { logActivity } from "~/activity/log-activity.server";
import type { Db } from "~/db/client.server";
import { contacts, conversationNotes, noteMentions, users, type Role } from "~/db/schema";
import { contactScope, everyUserSeesAllContacts, inScope } from "~/contacts/contact-scope.server";
import type { Actor } from "~/lib/actor";
import { AppError } from "~/lib/app-error";
import { conversationPath } from "~/lib/conversation-path";
import type { MentionHook } from "./mention-hook";
import { mentionCandidates, resolveMentions } from "./mentions";

/**
 * The active users a note's `@`s could name: by email (the unique index; emails are stored lower-case) or by first name (a small table). Only
 * these are read, so resolution does not depend on the size of the team; resolveMentions then decides.
 */
async function mentionables(db: Db, body: string) {
  const { emails, firstWords } = mentionCandidates(body);
  if (!emails.length && !firstWords.length) return [];
  const first = sql`lower(${users.firstName})`;
  const rows = await db
    .select({
      id: users.id,
      firstName: users.firstName,
      lastName: users.lastName,
      email: users.email,
      role: users.role,
    })
    .from(users)
    .where(
      and(
        eq(users.isActive, true),
        or(
          emails.length ? inJson(users.email, emails) : undefined,
          ...firstWords.map((w) => sql`(${first} = ${w} OR ${first} LIKE ${w.replace(/[%_]/g, "")} || ' %')`),
        ),
      ),
    )
    .limit(200);
  return rows.map((u) => ({ ...u, name: `${u.firstName} ${u.lastName}`.trim() }));
}

/**
 * A mention links to the conversation: someone who cannot see the contact (a standard user, not its owner, decision
 * 048) would land on a 404. Refused with what to do instead; the note is not written.
 */
async function assertMentionedCanSee(
  db: Db,
  contact: { ownerUserId: number | null },
  mentioned: { id: number; role: Role; name: string; email: string }[],
) {
  if (!mentioned.length) return;
  const settings = { everyUserSeesAll: await everyUserSeesAllContacts(db) };
  const blind = mentioned
    .filter((u) => !inScope(contactScope({ userId: u.id, role: u.role }, settings), contact))
    .map((u) => u.name || u.email);
  if (blind.length)
    throw new AppError(
      "validation",
      `${blind.join(", ")} cannot see this contact (it has another owner). Hand the contact over to them, or leave the mention out.`,
      { field: "note" },
    );
}

export const NOTE_MAX = 1000;
export const noteSchema = z.object({
  note: z
    .string({ required_error: "Please write the note" })
    .trim()
    .min(1, "Please write the note")
    .max(NOTE_MAX, `Keep the note under ${NOTE_MAX} characters`),
});

export type NoteTarget = { contactId: number } | { phone: string };

/**
 * An internal note on a conversation (decision 047): stored in conversation_notes, never in messages, so no send path
 * can pick it up. The @mentions in it are resolved here against the active users (the author is never their own
 * mention) and kept in note_mentions; then the mention hooks hear of it (web push later). A hook that fails is logged:
 * the note stands.
 */
export async function addConversationNote(
  db: Db,
  to: NoteTarget,
  input: z.infer<typeof noteSchema>,
  actor: Actor,
  now: Date,
  hooks: readonly MentionHook[] = [],
) {
  const contact =
    "contactId" in to
      ? await db
          .select({ id: contacts.id, ownerUserId: contacts.ownerUserId })
          .from(contacts)
          .where(eq(contacts.id, to.contactId))
          .get()
      : null;
  if ("contactId" in to && !contact) throw new AppError("not_found", "Contact not found");
  const active = await mentionables(db, input.note);
  const mentioned = resolveMentions(input.note, active).filter((id) => id !== actor.userId);
  if (contact)
    await assertMentionedCanSee(
      db,
      contact,
      active.filter((u) => mentioned.includes(u.id)),
    );
  const [note] = await db
    .insert(conversationNotes)
    .values({
      kind: "note",
      contactId: "contactId" in to ? to.contactId : null,
      phone: "phone" in to ? to.phone : null,
      authorUserId: actor.userId,
      body: input.note,
      createdAt: now,
    })
    .returning({ id: conversationNotes.id });
  const log = logActivity(db, "add_conversation_note", {
    ...actor,
    now,
    details: { noteId: note.id, ...("contactId" in to ? { contactId: to.contactId } : {}), mentions: mentioned },
  });
  if (mentioned.length)
    await db.batch([db.insert(noteMentions).values(mentioned.map((userId) => ({ userId, noteId: note.id }))), log]);
  else await log;
  if (mentioned.length) {
    const event = {
      noteId: note.id,
      userIds: mentioned,
      authorUserId: actor.userId,
      contactId: "contactId" in to ? to.contactId : null,
      phone: "phone" in to ? to.phone : null,
      path: conversationPath(to),
      excerpt: input.note.slice(0, 140),
      at: now,
    };
    for (const hook of hooks)
      await hook(event).catch((error) => console.error("[mentions] a mention hook failed", error));
  }
  const names = active.filter((u) => mentioned.includes(u.id)).map((u) => u.name || u.email);
  return { id: note.id, mentioned: names };
}
