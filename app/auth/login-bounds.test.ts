import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { call, db } from "../../tests/factories";
import { EMAIL_TOO_LONG, PASSWORD_TOO_LONG } from "./login-schema";

const stored = (prefix: string) =>
  db().get<{ n: number }>(sql`SELECT count(*) AS n FROM login_history WHERE email LIKE ${prefix + "%"}`);

describe("login input is bounded before it is hashed or stored (issue 23)", () => {
  it("an email over 254 characters or a password over 256 is a 400 that stores nothing, on the API and on the form", async () => {
    const prefix = `x${crypto.randomUUID().slice(0, 8)}`;
    const longEmail = `${prefix}${"a".repeat(300)}@example.com`;
    const api = await call("/api/auth/login", { method: "POST", json: { email: longEmail, password: "whatever" } });
    expect(api.status).toBe(400);
    expect(await api.json()).toEqual({ message: EMAIL_TOO_LONG });
    const form = await call("/login", {
      method: "POST",
      body: new URLSearchParams({ email: longEmail, password: "whatever" }),
    });
    expect(form.status).toBe(400);
    expect(await form.text()).toContain(EMAIL_TOO_LONG);
    expect((await stored(prefix))!.n).toBe(0);

    const email = `${prefix}@example.com`;
    const apiPw = await call("/api/auth/login", { method: "POST", json: { email, password: "p".repeat(257) } });
    expect(apiPw.status).toBe(400);
    expect(await apiPw.json()).toEqual({ message: PASSWORD_TOO_LONG });
    const formPw = await call("/login", {
      method: "POST",
      body: new URLSearchParams({ email, password: "p".repeat(257) }),
    });
    expect(formPw.status).toBe(400);
    expect((await stored(prefix))!.n).toBe(0);
    // At the bounds, an attempt is an ordinary failed login (401), recorded.
    const atBound = await call("/api/auth/login", { method: "POST", json: { email, password: "p".repeat(256) } });
    expect(atBound.status).toBe(401);
    expect((await stored(prefix))!.n).toBe(1);
  });
});
