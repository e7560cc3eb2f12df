import type { BatchItem, BatchResponse } from "drizzle-orm/batch";
import type { Db } from "~/db/client.server";
import { getContact } from "~/contacts/get-contact.server";
import type { ContactViewer } from "~/contacts/contact-scope.server";
import { leadConsentsFrom, selectImportConsent, selectLeadConsents } from "~/contacts/list-lead-consents.server";
import { loadOwnerPicker, ownerChoicesFrom, selectOwnerChoices } from "~/contacts/load-owner-picker.server";
import { selectPipelineStages } from "~/contacts/pipeline-stages.server";
import { selectContactTags } from "~/contacts/list-contact-tags.server";
import { selectNewestTemplates } from "~/templates/list-templates.server";
import { pickTemplate, PICKER_TEMPLATES } from "~/templates/pick-template.server";
import { publicTemplate } from "~/templates/public-template.server";
import { contactCampaigns, selectThreadRows, threadFrom } from "./get-conversation.server";
import { markConversationOpened, selectConversationRow } from "./open-conversation.server";

/**
 * The contact page's data (decision 062: each D1 round trip costs the Worker ~0.7 ms of CPU beside its query). The
 * page's eight small reads go in one batch beside the contact's own read; the contact's scope check (getContact
 * throws when it is out of scope or gone) decides before anything read is used or anything written. Then what
 * depends on them: the thread's notes and files, a picked template, an inactive owner, the read marker (decision 046).
 * `alongside`: other features' reads of this contact (the route's cards: appointments, link clicks), run in the same
 * batch and returned in order as `alongside`, so each card costs no round trip of its own.
 */
export async function loadContactPage<A extends readonly BatchItem<"sqlite">[] = []>(
  db: Db,
  q: { contactId: number; viewer: ContactViewer; url: URL; before: number | null; now: Date },
  alongside: A = [] as unknown as A,
) {
  const who = { contactId: q.contactId };
  const [
    contact,
    [threadRows, campaigns, templateRows, leadRows, userRows, conversation, stages, listRows, tagRows, ...rest],
  ] = await Promise.all([
    getContact(db, q.contactId, q.viewer),
    db.batch([
      selectThreadRows(db, who, { before: q.before }),
      contactCampaigns(db, q.contactId),
      selectNewestTemplates(db, PICKER_TEMPLATES),
      selectLeadConsents(db, q.contactId),
      selectOwnerChoices(db),
      selectConversationRow(db, who),
      selectPipelineStages(db),
      selectImportConsent(db, q.contactId),
      selectContactTags(db, q.contactId),
      ...alongside,
    ]),
  ]);
  const users = ownerChoicesFrom(userRows);
  const me = { id: q.viewer.userId, superuser: q.viewer.role === "superuser" };
  const [thread, templates, owner, queue] = await Promise.all([
    threadFrom(db, who, threadRows, { before: q.before }),
    pickTemplate(db, q.url, templateRows.map(publicTemplate)),
    loadOwnerPicker(db, contact.ownerUserId, me, users),
    markConversationOpened(db, q.viewer.userId, conversation[0] ?? null, q.now),
  ]);
  return {
    contact,
    thread,
    campaigns,
    templates,
    leads: leadConsentsFrom(leadRows, listRows),
    owner,
    queue,
    users,
    stages,
    tags: tagRows.map((r) => r.tag),
    alongside: rest as unknown as BatchResponse<A>,
  };
}
