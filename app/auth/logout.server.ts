import { eq } from "drizzle-orm";
import { runBatch, type Db } from "~/db/client.server";
import { sessions } from "~/db/schema";
import { logActivity } from "~/activity/log-activity.server";
import { sha256Hex } from "~/lib/crypto.server";
import { clientIp } from "~/lib/request.server";
import { findSessionUser, readSessionToken } from "./session.server";

/** Deletes the session row (the cookie becomes worthless) and records `logout`. */
export async function logOut(db: Db, request: Request, now: Date) {
  const token = readSessionToken(request);
  const user = await findSessionUser(db, token, now);
  if (!token || !user) return false;
  await runBatch(db, [
    db.delete(sessions).where(eq(sessions.id, await sha256Hex(token))),
    logActivity(db, "logout", { userId: user.id, ipAddress: clientIp(request), now }),
  ]);
  return true;
}
