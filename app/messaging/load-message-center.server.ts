import type { Db } from "~/db/client.server";
import { messagingConfig } from "./config.server";
import { listMessages, messageTabCounts, sendingBacklog } from "./list-messages.server";
import type { MessageTab } from "./message-tabs";
import { loadRetentionMonths } from "./org-settings.server";
import { providerMode } from "./providers/registry.server";

/**
 * The Message Center screen: one page of the (searched) tab, the tab counts, the sending backlog, the pacing limits
 * and the retention (messages older than it are archived to R2; the tab counts still include them).
 */
export async function loadMessageCenter(db: Db, env: Env, now: Date, query: { q?: string; tab?: MessageTab; before?: number }) {
  const [page, counts, backlog, retentionMonths] = await Promise.all([listMessages(db, query), messageTabCounts(db), sendingBacklog(db, now), loadRetentionMonths(db)]);
  const { smsRatePerSecond, smsDailyCap } = messagingConfig(env);
  return {
    ...page,
    counts,
    backlog,
    pacing: { smsRatePerSecond, smsDailyCap },
    retentionMonths,
    q: query.q ?? "",
    tab: query.tab ?? "all",
    localMode: providerMode(env).sms === "outbox",
  };
}
