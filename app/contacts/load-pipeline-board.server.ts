import { and, count, eq, isNull } from "drizzle-orm";
import type { Db } from "~/db/client.server";
import { contacts } from "~/db/schema";
import { loadContactScope, type ContactViewer } from "./contact-scope.server";
import { listContacts } from "./list-contacts.server";
import { listPipelineStages } from "./pipeline-stages.server";

/** Contacts shown on each column of the board (the rest are one "See all" away: the list filtered by stage). */
export const BOARD_CARDS = 5;
/** A column's count stops here and reads "1,000+": never an unbounded COUNT. */
export const STAGE_COUNT_CAP = 1000;

/**
 * The pipeline board (decision 053): each stage with how many of the viewer's contacts are in it (capped) and the
 * newest few. Every read is a seek of contacts_stage_idx, or of contacts_owner_stage_idx for a standard user's scope
 * (their own and the unowned, two seeks) — bounded by the cap and the card count, whatever the table holds.
 */
export async function loadPipelineBoard(db: Db, viewer: ContactViewer) {
  const [stages, scope] = await Promise.all([listPipelineStages(db), loadContactScope(db, viewer)]);
  const owners =
    scope.kind === "all" ? [undefined] : [eq(contacts.ownerUserId, scope.userId), isNull(contacts.ownerUserId)];
  const capped = (stage: string, owner: ReturnType<typeof eq> | undefined) =>
    db
      .select({ n: count() })
      .from(
        db
          .select({ id: contacts.id })
          .from(contacts)
          .where(and(owner, eq(contacts.stage, stage)))
          .limit(STAGE_COUNT_CAP + 1)
          .as("s"),
      )
      .get()
      .then((r) => r?.n ?? 0);
  const columns = await Promise.all(
    stages.map(async (s) => {
      const [counts, page] = await Promise.all([
        Promise.all(owners.map((o) => capped(s.key, o))),
        listContacts(db, { stage: s.key, limit: BOARD_CARDS, scope }),
      ]);
      const n = counts.reduce((a, b) => a + b, 0);
      return {
        key: s.key,
        label: s.label,
        outcome: s.outcome,
        count: Math.min(n, STAGE_COUNT_CAP),
        more: n > STAGE_COUNT_CAP,
        contacts: page.contacts.map((c) => ({
          id: c.id,
          name: `${c.firstName} ${c.lastName}`.trim(),
          phone: c.phone,
          since: (c.stageChangedAt ?? c.createdAt).toISOString(),
        })),
      };
    }),
  );
  return { columns };
}
