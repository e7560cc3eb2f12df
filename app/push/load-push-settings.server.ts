import { desc, eq } from "drizzle-orm";
import type { Db } from "~/db/client.server";
import { pushPreferences, pushSubscriptions } from "~/db/schema";
import type { PushConfig } from "./push-config";
import { MAX_PUSH_SUBSCRIPTIONS } from "./push-schema";

/** The account screen's "Notifications" card: whether push is set up, the user's choices and subscribed devices. */
export async function loadPushSettings(db: Db, config: PushConfig | null, userId: number) {
  const [prefs, devices] = await Promise.all([
    db
      .select({ hotLeads: pushPreferences.hotLeads, replies: pushPreferences.replies })
      .from(pushPreferences)
      .where(eq(pushPreferences.userId, userId))
      .get(),
    db
      .select({ id: pushSubscriptions.id, device: pushSubscriptions.device, createdAt: pushSubscriptions.createdAt })
      .from(pushSubscriptions)
      .where(eq(pushSubscriptions.userId, userId))
      .orderBy(desc(pushSubscriptions.id))
      .limit(MAX_PUSH_SUBSCRIPTIONS),
  ]);
  return {
    enabled: !!config,
    /** The VAPID public key the browser subscribes with (public by design). */
    publicKey: config?.publicKey ?? null,
    hotLeads: prefs?.hotLeads ?? true,
    replies: prefs?.replies ?? true,
    devices: devices.map((d) => ({ id: d.id, device: d.device ?? "Browser", since: d.createdAt.toISOString() })),
  };
}
