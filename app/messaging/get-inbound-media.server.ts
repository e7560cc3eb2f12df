import { and, eq, sql } from "drizzle-orm";
import type { Db } from "~/db/client.server";
import { contacts, messageMedia, messages } from "~/db/schema";
import { AppError } from "~/lib/app-error";
import { loadContactScope, scopeCondition, type ContactViewer } from "~/contacts/contact-scope.server";
import type { MediaBucket } from "./fetch-inbound-media.server";

export const MEDIA_NOT_FOUND = "Picture not found";

/**
 * One stored file of an inbound MMS (decision 057), for someone who sees its conversation: a contact in the viewer's
 * scope (decision 048), or a bare number's (which every user sees). Anything else — another rep's lead, a file not
 * fetched yet, refused, or gone from R2 — is the same 404.
 */
export async function getInboundMedia(db: Db, bucket: MediaBucket, id: number, viewer: ContactViewer) {
  const scope = await loadContactScope(db, viewer);
  const row = await db
    .select({ key: messageMedia.r2Key, contentType: messageMedia.contentType, size: messageMedia.sizeBytes })
    .from(messageMedia)
    .innerJoin(messages, eq(messages.id, messageMedia.messageId))
    .leftJoin(contacts, eq(contacts.id, messages.contactId))
    .where(
      and(
        eq(messageMedia.id, id),
        eq(messageMedia.status, "stored"),
        sql`(${messages.contactId} IS NULL OR ${scopeCondition(scope) ?? sql`1`})`,
      ),
    )
    .get();
  const object = row?.key ? await bucket.get(row.key) : null;
  if (!row || !object) throw new AppError("not_found", MEDIA_NOT_FOUND);
  return { body: object.body, contentType: row.contentType, size: row.size };
}
