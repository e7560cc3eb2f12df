import { Authenticator } from "remix-auth";
import { FormStrategy } from "remix-auth-form";
import type { Db } from "~/db/client.server";
import type { Clock } from "~/lib/clock";
import { clientIp, userAgent } from "~/lib/request.server";
import { readDeviceId } from "./device-cookie.server";
import { logIn, type LogInResult } from "./login.server";

export type Authenticated = LogInResult;

/**
 * remix-auth v4 only verifies; storing the session (a D1 row) is ours, done inside logIn. `secret` checks the
 * browser's device cookie (its own login throttle budget).
 */
export function createAuthenticator(db: Db, clock: Clock, secret?: string) {
  const authenticator = new Authenticator<Authenticated>();
  authenticator.use(
    new FormStrategy(async ({ form, request }) =>
      logIn(
        db,
        {
          email: String(form.get("email") ?? ""),
          password: String(form.get("password") ?? ""),
          ipAddress: clientIp(request),
          userAgent: userAgent(request),
          deviceId: await readDeviceId(request, secret, String(form.get("email") ?? "")),
        },
        clock(),
      ),
    ),
    "form",
  );
  return authenticator;
}
