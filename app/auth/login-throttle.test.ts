import { describe, expect, it } from "vitest";
import { call, createTestUser } from "../../tests/factories";

const attempt = (email: string, password: string, headers: Record<string, string> = {}, cookie?: string) =>
  call("/api/auth/login", { method: "POST", json: { email, password }, headers, cookie });
const deviceCookieFrom = (res: Response) => {
  const set = res.headers.getSetCookie().find((c) => c.includes("helio_device="));
  return set ? set.split(";")[0] : null;
};

describe("login back-off cannot be raced (issue 9 #2)", () => {
  it("20 concurrent wrong passwords: at most 5 are verified, the rest are refused before the check, and the right one then waits", async () => {
    const u = await createTestUser();
    const results = await Promise.all(Array.from({ length: 20 }, (_, i) => attempt(u.email, `wrong-${i}`)));
    const statuses = results.map((r) => r.status);
    expect(statuses.filter((s) => s === 401).length).toBeLessThanOrEqual(5);
    expect(statuses.filter((s) => s === 429).length).toBeGreaterThanOrEqual(15);
    expect(statuses.every((s) => s === 401 || s === 429)).toBe(true);
    expect((await attempt(u.email, u.password)).status).toBe(429);
  });
});

describe("device cookies: strangers cannot lock the owner out (issue 9 #6, OWASP device cookies)", () => {
  it("a browser that signed in before still gets in after five wrong guesses from elsewhere; an unknown client does not", async () => {
    const u = await createTestUser();
    const first = await attempt(u.email, u.password);
    expect(first.status).toBe(200);
    const device = deviceCookieFrom(first);
    expect(device).toMatch(/helio_device=/);
    expect(first.headers.getSetCookie().find((c) => c.includes("helio_device="))).toMatch(/HttpOnly/);
    for (let i = 0; i < 5; i++)
      expect((await attempt(u.email, `stranger-${i}`, { "CF-Connecting-IP": "203.0.113.66" })).status).toBe(401);
    // Unknown client: locked by the back-off, even with the right password.
    expect((await attempt(u.email, u.password)).status).toBe(429);
    // The owner's browser: its own budget, so the right password works.
    const owner = await call("/api/auth/login", {
      method: "POST",
      json: { email: u.email, password: u.password },
      cookie: device!,
    });
    expect(owner.status).toBe(200);
    expect(deviceCookieFrom(owner)).toMatch(/helio_device=/); // a fresh device cookie at each sign-in
  });

  it("a device cookie has its own small failure budget, counts only for its account and cannot be forged", async () => {
    const u = await createTestUser();
    const other = await createTestUser();
    const device = deviceCookieFrom(await attempt(u.email, u.password))!;
    // For another account the cookie is nobody: the other account's back-off applies to it.
    for (let i = 0; i < 5; i++) expect((await attempt(other.email, `x-${i}`)).status).toBe(401);
    expect((await attempt(other.email, other.password, {}, device)).status).toBe(429);
    // A tampered cookie is ignored too.
    const [name, value] = device.split("=");
    const forged = `${name}=${value.slice(0, -2)}${value.endsWith("AA") ? "BB" : "AA"}`;
    for (let i = 0; i < 5; i++) expect((await attempt(u.email, `y-${i}`)).status).toBe(401);
    expect((await attempt(u.email, u.password, {}, forged)).status).toBe(429);
    // The device's own budget: five wrong guesses with the cookie, then it counts as an unknown client (locked).
    for (let i = 0; i < 5; i++) expect((await attempt(u.email, `z-${i}`, {}, device)).status).toBe(401);
    expect((await attempt(u.email, u.password, {}, device)).status).toBe(429);
  });

  it("the sign-in screen issues and honours the device cookie too", async () => {
    const u = await createTestUser();
    const form = (password: string, cookie?: string) =>
      call("/login", { method: "POST", body: new URLSearchParams({ email: u.email, password }), cookie });
    const ok = await form(u.password);
    expect(ok.status).toBe(302);
    const device = deviceCookieFrom(ok)!;
    expect(device).toBeTruthy();
    for (let i = 0; i < 5; i++) expect((await form(`w-${i}`)).status).toBe(401);
    expect((await form(u.password)).status).toBe(429);
    expect((await form(u.password, device)).status).toBe(302);
  });
});
