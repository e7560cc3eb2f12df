import { asc, eq } from "drizzle-orm";
import type { Db } from "~/db/client.server";
import { contactTags } from "~/db/schema";

/** A contact's tags in name order: a range of the primary key. A builder, to ride in the contact page's batch. */
export function selectContactTags(db: Db, contactId: number) {
  return db
    .select({ tag: contactTags.tag })
    .from(contactTags)
    .where(eq(contactTags.contactId, contactId))
    .orderBy(asc(contactTags.tag));
}
