import type { Db } from "~/db/client.server";
import { messagingConfig } from "../messaging/messaging-config.server";
import type { ContactViewer } from "~/contacts/contact-scope.server";
import {
  backlogFrom,
  backlogStatements,
  listMessages,
  selectMessageCounts,
  tabCountsFrom,
  visibleTabCounts,
} from "./list-messages.server";
import type { MessageTab } from "./message-tabs";
import { messageCenterSettingsFrom, selectOrgSettings } from "../messaging/org-settings.server";
import { quietZonesNow } from "../messaging/quiet-hours";
import { providerMode } from "../messaging/providers/registry.server";

/**
 * The Message Center screen: one page of the (searched) tab and the tab counts, of the messages the viewer sees
 * (decision 052), the sending backlog, the pacing limits
 * the retention (messages older than it are archived to R2; the tab counts still include them), and where in the US
 * it is quiet hours now.
 */
export async function loadMessageCenter(
  db: Db,
  env: Env,
  now: Date,
  viewer: ContactViewer,
  query: { q?: string; tab?: MessageTab; before?: number },
) {
  // The counters, the backlog and the settings are small reads: one D1 batch beside the page's own (decision 062).
  const side = async () => {
    const [counts, pending, pacing, nextDue, settings] = await db.batch([
      selectMessageCounts(db),
      ...backlogStatements(db),
      selectOrgSettings(db),
    ]);
    return {
      counts: await visibleTabCounts(db, viewer, tabCountsFrom(counts)),
      backlog: backlogFrom([pending, pacing, nextDue], now),
      settings: messageCenterSettingsFrom(settings),
    };
  };
  const [page, { counts, backlog, settings }] = await Promise.all([listMessages(db, { ...query, viewer }), side()]);
  const { smsRatePerSecond, smsDailyCap } = messagingConfig(env);
  return {
    ...page,
    counts,
    backlog,
    pacing: { smsRatePerSecond, smsDailyCap },
    retentionMonths: settings.retentionMonths,
    q: query.q ?? "",
    tab: query.tab ?? "all",
    localMode: providerMode(env).sms === "outbox",
    // Why marketing texts wait right now (night somewhere in the US), and the local outbox's switch to skip that.
    quietZones: quietZonesNow(now),
    localIgnoreQuietHours: settings.localIgnoreQuietHours,
  };
}
