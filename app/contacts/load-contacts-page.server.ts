import { inArray } from "drizzle-orm";
import type { Db } from "~/db/client.server";
import { userName } from "~/lib/names";
import { users, type Contact } from "~/db/schema";
import { listContacts, PAGE_SIZE, selectContactTotal, type OwnerFilter } from "./list-contacts.server";
import { publicContact } from "./public-contact.server";
import { ownerChoicesFrom, selectOwnerChoices } from "./load-owner-picker.server";
import { loadContactScope, type ContactViewer } from "./contact-scope.server";
import { selectPipelineStages } from "./pipeline-stages.server";
import { tagField } from "./contact-tag";

/** `owner`: "me", "none" or a user id (decision 044); anything else lists everyone. `stage`: a stage key (053). */
export type ContactListQuery = {
  q?: string;
  after?: number;
  before?: number;
  owner?: string;
  stage?: string;
  /** A tag as typed (decision 073); a malformed one is no filter. */
  tag?: string;
};

function listRow(c: Contact, owners: Map<number, string>, stages: Map<string, string>) {
  const { id, firstName, lastName, phone, email, company, sendable, unsendableReason, optedOut } = publicContact(c);
  const stateZip = [c.state, c.zipCode].filter(Boolean).join(" ");
  const location = [c.city, stateZip].filter(Boolean).join(", ") || c.address || "";
  const owner = c.ownerUserId === null ? null : { id: c.ownerUserId, name: owners.get(c.ownerUserId) ?? "" };
  const stage = { key: c.stage, label: stages.get(c.stage) ?? c.stage };
  return {
    id,
    firstName,
    lastName,
    phone,
    email,
    company,
    location,
    sendable,
    unsendableReason,
    optedOut,
    owner,
    stage,
  };
}

function ownerFilter(owner: string | undefined, meId: number): OwnerFilter {
  if (owner === "me") return meId;
  if (owner === "none") return "none";
  return owner && /^[1-9]\d{0,15}$/.test(owner) ? Number(owner) : undefined;
}

/**
 * The Contacts screen: one page of the (searched, owner-filtered) list as table rows with each owner's name, and the
 * active users for the owner filter and the bulk "Set owner" form. The total is counted only for the whole list,
 * where it is one cheap COUNT.
 */
export async function loadContactsPage(db: Db, query: ContactListQuery, viewer: ContactViewer) {
  const q = query.q ?? "";
  const owner = ownerFilter(query.owner, viewer.userId);
  // The small reads in one D1 batch (decision 062), then the page itself, which needs the checked stage.
  const [scope, [stageRows, choiceRows, totals]] = await Promise.all([
    loadContactScope(db, viewer),
    db.batch([selectPipelineStages(db), selectOwnerChoices(db), selectContactTotal(db)]),
  ]);
  const stages = new Map(stageRows.map((s) => [s.key, s.label]));
  // An unknown stage in the URL is no filter (like any malformed list parameter).
  const stage = query.stage && stages.has(query.stage) ? query.stage : undefined;
  const choices = ownerChoicesFrom(choiceRows);
  const tag = query.tag ? tagField.safeParse(query.tag).data : undefined;
  const page = await listContacts(db, {
    q,
    after: query.after,
    before: query.before,
    limit: PAGE_SIZE,
    owner,
    stage,
    tag,
    scope,
  });
  // The total is the whole table's counter: shown only to those who see the whole table.
  const total = q || owner !== undefined || stage || tag || scope.kind !== "all" ? null : (totals[0]?.n ?? 0);
  const names = new Map(choices.map((u) => [u.id, u.name]));
  // An owner who is no longer active (only the CLI of old could leave one) is looked up by id: a handful of rows.
  const missing = [...new Set(page.contacts.map((c) => c.ownerUserId))].filter(
    (id): id is number => id !== null && !names.has(id),
  );
  if (missing.length) {
    const rows = await db
      .select({ id: users.id, firstName: users.firstName, lastName: users.lastName, email: users.email })
      .from(users)
      .where(inArray(users.id, missing));
    for (const u of rows) names.set(u.id, userName(u));
  }
  return {
    q,
    owner: query.owner ?? "",
    stage: stage ?? "",
    tag: tag ?? "",
    stages: stageRows.map((s) => ({ key: s.key, label: s.label })),
    /** false: the list is the viewer's own and the unowned contacts (decision 048); the filter offers only those. */
    seesAll: scope.kind === "all",
    owners: choices.map((u) => ({ id: u.id, name: u.name })),
    contacts: page.contacts.map((c) => listRow(c, names, stages)),
    total,
    nextCursor: page.nextCursor,
    prevCursor: page.prevCursor,
  };
}
