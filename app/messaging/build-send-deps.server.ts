import type { Db } from "~/db/client.server";
import { messagingConfig } from "./config.server";
import { emailProviderFor, smsProviderFor } from "./providers/registry.server";
import type { SendDeps } from "./consume-send-batch.server";

/** Wires the send pipeline from the environment: providers chosen by configuration. */
export function buildSendDeps(env: Env, db: Db, now: () => Date): SendDeps {
  return { db, config: messagingConfig(env), sms: smsProviderFor(env, db, now), email: emailProviderFor(env, db, now), now };
}
