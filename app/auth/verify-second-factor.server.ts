import { and, eq, isNull, lt, or } from "drizzle-orm";
import type { Db } from "~/db/client.server";
import { recoveryCodes, users, type User } from "~/db/schema";
import { sha256Hex } from "~/lib/crypto.server";
import { matchTotp } from "./totp";

export const INVALID_CODE = "Invalid authentication code";

/** Recovery codes are typed by people: case, spaces and dashes do not matter. */
export const normaliseRecoveryCode = (code: string) => code.toLowerCase().replace(/[\s-]/g, "");

/**
 * Checks a TOTP code (6 digits) or a recovery code for a user with two-factor on, and spends it: the TOTP step is
 * recorded with a conditional UPDATE (a code — or an older one — is never accepted twice, even by two concurrent
 * requests), a recovery code is marked used the same way. Returns what passed, or null.
 */
export async function verifySecondFactor(
  db: Db,
  user: Pick<User, "id" | "totpSecret" | "totpEnabledAt">,
  code: string,
  now: Date,
): Promise<"totp" | "recovery" | null> {
  if (!user.totpSecret || !user.totpEnabledAt) return null;
  const typed = code.trim();
  if (/^\d{6}$/.test(typed)) {
    const step = await matchTotp(user.totpSecret, typed, now);
    if (step === null) return null;
    const spent = await db
      .update(users)
      .set({ totpLastStep: step })
      .where(and(eq(users.id, user.id), or(isNull(users.totpLastStep), lt(users.totpLastStep, step))))
      .returning({ id: users.id });
    return spent.length ? "totp" : null;
  }
  const normal = normaliseRecoveryCode(typed);
  if (!/^[a-z2-7]{10}$/.test(normal)) return null;
  const spent = await db
    .update(recoveryCodes)
    .set({ usedAt: now })
    .where(
      and(
        eq(recoveryCodes.userId, user.id),
        eq(recoveryCodes.codeHash, await sha256Hex(normal)),
        isNull(recoveryCodes.usedAt),
      ),
    )
    .returning({ id: recoveryCodes.id });
  return spent.length ? "recovery" : null;
}
