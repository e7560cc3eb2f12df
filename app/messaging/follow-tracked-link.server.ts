import { eq, sql } from "drizzle-orm";
import type { Db } from "~/db/client.server";
import { linkClicks, messages } from "~/db/schema";
import { AppError } from "~/lib/app-error";
import type { JobQueue } from "~/lib/job-queue";
import type { LinkClickedJob } from "~/jobs/jobs";
import { trackableLinks } from "./tracked-links";
import { linkSigner, verifyLinkCode } from "./tracked-links.server";

export const LINK_NOT_VALID = "This link is not valid.";
export const LINK_EXPIRED = "This link has expired.";

export type FollowLinkDeps = { db: Db; queue: JobQueue; now: Date; secret: string | null };

/**
 * A tracked link's redirect (decision 068): the signed code names a message and the place of a link in it; the
 * destination is that link as the message's stored content holds it — never anything the request carries, so
 * there is no open redirect. It keeps working while the message is in D1 (the retention is at least 3 months); an
 * archived message's link says it has expired. A person's click (`countable`: not a preview, bot or HEAD) is counted
 * on the message's link row, and its first click queues the `link-clicked` job (the triggers and the owner's alert).
 * Reads the message by primary key and writes one row.
 */
export async function followTrackedLink(
  deps: FollowLinkDeps,
  code: string,
  visit: { countable: boolean },
): Promise<{ url: string }> {
  const named = deps.secret ? await verifyLinkCode(await linkSigner(deps.secret), code) : null;
  if (!named) throw new AppError("not_found", LINK_NOT_VALID);
  const m = await deps.db
    .select({
      content: messages.content,
      direction: messages.direction,
      contactId: messages.contactId,
      campaignId: messages.campaignId,
      stepId: messages.stepId,
    })
    .from(messages)
    .where(eq(messages.id, named.messageId))
    .get();
  const link = m?.direction === "outbound" ? trackableLinks(m.content)[named.index] : undefined;
  const url = link ? httpUrl(link.url) : null;
  if (!m || !url) throw new AppError("not_found", LINK_EXPIRED);
  if (visit.countable && m.contactId !== null) {
    const [row] = await deps.db
      .insert(linkClicks)
      .values({
        messageId: named.messageId,
        linkIndex: named.index,
        url,
        contactId: m.contactId,
        campaignId: m.campaignId,
        stepId: m.stepId,
        firstClickedAt: deps.now,
        lastClickedAt: deps.now,
      })
      .onConflictDoUpdate({
        target: [linkClicks.messageId, linkClicks.linkIndex],
        set: { clicks: sql`${linkClicks.clicks} + 1`, lastClickedAt: deps.now },
      })
      .returning({ id: linkClicks.id, clicks: linkClicks.clicks });
    // The homeowner is on their way either way: a lost job costs the trigger and the alert, never the redirect.
    if (row?.clicks === 1)
      await deps.queue
        .send({ v: 1, type: "link-clicked", clickId: row.id } satisfies LinkClickedJob)
        .catch((err) => console.error("link-clicked job not queued", row.id, err));
  }
  return { url };
}

/** The link as a Location header can carry it (percent-encoded), or null when it is not an http(s) URL. */
function httpUrl(raw: string): string | null {
  try {
    const u = new URL(raw);
    return u.protocol === "https:" || u.protocol === "http:" ? u.href : null;
  } catch {
    return null;
  }
}
