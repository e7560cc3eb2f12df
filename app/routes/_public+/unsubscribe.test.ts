import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { unsubscribeToken } from "~/messaging/unsubscribe.server";
import { call, db } from "../../../tests/factories";

describe("cross-site POST to /unsubscribe/:token (issue 9 #7)", () => {
  it("a valid token's POST from another site is the one-click unsubscribe (RFC 8058), not a 500", async () => {
    const email = `x${crypto.randomUUID().slice(0, 8)}@example.com`;
    const token = await unsubscribeToken("test-session-secret", email);
    for (const origin of ["https://mail.example", "null"]) {
      const res = await call(`/unsubscribe/${token}`, {
        method: "POST",
        body: new URLSearchParams({ "List-Unsubscribe": "One-Click" }),
        headers: { Origin: origin },
      });
      expect(res.status).toBe(200);
    }
    expect(await db().get(sql`SELECT reason FROM suppressions WHERE channel = 'email' AND address = ${email}`)).toEqual(
      { reason: "email-unsubscribe" },
    );
  });

  it("a forged token from another site is a clean 404", async () => {
    const forged = await unsubscribeToken("another-secret", "victim@example.com");
    const res = await call(`/unsubscribe/${forged}`, {
      method: "POST",
      body: new URLSearchParams(),
      headers: { Origin: "https://evil.example" },
    });
    expect(res.status).toBe(404);
    expect(await db().get(sql`SELECT 1 AS x FROM suppressions WHERE address = 'victim@example.com'`)).toBeFalsy();
  });
});
