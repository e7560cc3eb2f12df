import { inArray } from "drizzle-orm";
import { runContactTriggers } from "~/campaigns/run-lead-triggers.server";
import type { Db } from "~/db/client.server";
import { linkClicks } from "~/db/schema";
import type { JobQueue } from "~/lib/job-queue";
import type { PushJob } from "~/jobs/jobs";

/**
 * What a contact's first click on a tracked link sets off (decision 068), from the `link-clicked` job: the sequence
 * rules "a link is clicked (in this sequence, or any)" start theirs, and the contact's owner hears of it by push
 * (the hot-leads preference and the hourly push cap hold). The clicks are read by primary key.
 */
export async function onLinkClicked(deps: { db: Db; queue: JobQueue; now: Date }, clickIds: readonly number[]) {
  const { db, queue, now } = deps;
  const clicks = await db
    .select({ id: linkClicks.id, contactId: linkClicks.contactId, campaignId: linkClicks.campaignId })
    .from(linkClicks)
    .where(inArray(linkClicks.id, [...clickIds]));
  for (const c of clicks) {
    if (c.contactId === null) continue;
    await runContactTriggers(
      { db, queue },
      { contactIds: [c.contactId], on: "link.clicked", key: c.campaignId === null ? "" : String(c.campaignId), now },
    );
    await queue.send({ v: 1, type: "push", event: { kind: "link-click", clickId: c.id } } satisfies PushJob);
  }
}
