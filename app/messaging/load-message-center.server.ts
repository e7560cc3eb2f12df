import type { Db } from "~/db/client.server";
import { messagingConfig } from "./config.server";
import { listMessages, messageTabCounts, sendingBacklog } from "./list-messages.server";
import type { MessageTab } from "./message-tabs";
import { providerMode } from "./providers/registry.server";

/** The Message Center screen: one page of the (searched) tab, the tab counts, the sending backlog and the pacing limits. */
export async function loadMessageCenter(db: Db, env: Env, now: Date, query: { q?: string; tab?: MessageTab; before?: number }) {
  const [page, counts, backlog] = await Promise.all([listMessages(db, query), messageTabCounts(db), sendingBacklog(db, now)]);
  const { smsRatePerSecond, smsDailyCap } = messagingConfig(env);
  return {
    ...page,
    counts,
    backlog,
    pacing: { smsRatePerSecond, smsDailyCap },
    q: query.q ?? "",
    tab: query.tab ?? "all",
    localMode: providerMode(env).sms === "outbox",
  };
}
