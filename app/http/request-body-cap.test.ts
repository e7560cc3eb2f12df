import { describe, expect, it } from "vitest";
import { call, createTestUser, loginAs } from "../../tests/factories";
import { countingStream } from "../../tests/counting-stream";
import { unsubscribeToken } from "~/messaging/unsubscribe.server";
import { MAX_PICTURE_FORM_BYTES, MAX_REQUEST_BYTES, MAX_SMALL_FORM_BYTES, MAX_WEBHOOK_BYTES } from "./read-body.server";
import { PICTURE_SIZE_ERROR } from "~/messaging/outbound-pictures.server";

const form = { "Content-Type": "application/x-www-form-urlencoded" };

describe("every request body is capped before a route reads it (issue 23)", () => {
  it("a conversation screen takes a picture's worth (decision 076) and refuses past it, by Content-Length", async () => {
    const cookie = await loginAs(await createTestUser());
    for (const path of ["/contacts/1", "/messages/conversations/%2B15005550006"]) {
      const over = await call(path, {
        method: "POST",
        cookie,
        body: "intent=reply",
        headers: { ...form, "Content-Length": String(MAX_PICTURE_FORM_BYTES + 1) },
      });
      expect(over.status, path).toBe(413);
      expect(await over.text(), path).toBe(PICTURE_SIZE_ERROR);
    }
    // Every other screen keeps the 1 MB cap.
    expect(MAX_PICTURE_FORM_BYTES).toBeGreaterThan(MAX_REQUEST_BYTES);
    const other = await call("/contacts/new", {
      method: "POST",
      cookie,
      body: "firstName=a",
      headers: { ...form, "Content-Length": String(MAX_REQUEST_BYTES + 1) },
    });
    expect(other.status).toBe(413);
  });

  it("/login, /unsubscribe and the Twilio webhooks refuse an over-limit body with 413, by Content-Length and by streamed bytes", async () => {
    const token = await unsubscribeToken("test-session-secret", "cap@example.com");
    const cases: [string, number][] = [
      ["/login", MAX_SMALL_FORM_BYTES],
      [`/unsubscribe/${token}`, MAX_SMALL_FORM_BYTES],
      [`/unsubscribe/${token}/one-click`, MAX_SMALL_FORM_BYTES],
      ["/webhooks/twilio/sms", MAX_WEBHOOK_BYTES],
      ["/webhooks/twilio/status", MAX_WEBHOOK_BYTES],
    ];
    for (const [path, max] of cases) {
      const declared = await call(path, {
        method: "POST",
        body: "email=a",
        headers: { ...form, "Content-Length": String(max + 1) },
      });
      expect(declared.status, path).toBe(413);
      expect(await declared.text(), path).toMatch(/^Request body too large \(maximum \d+ KB\)$/);
      // A chunked body is counted as it is read: the unsubscribe routes never read theirs (the token is the request).
      if (path.startsWith("/unsubscribe/")) continue;
      const { stream, state } = countingStream(8 * max, 16 * 1024);
      const streamed = await call(path, { method: "POST", body: stream, headers: form, duplex: "half" } as RequestInit);
      expect(streamed.status, path).toBe(413);
      expect(state.pulled, path).toBeLessThan(4 * max);
    }
  });

  it("a screen action and an /api route refuse a chunked body past 1 MB with 413 (JSON for /api) without reading it all", async () => {
    const cookie = await loginAs(await createTestUser());
    const { stream, state } = countingStream(16 * MAX_REQUEST_BYTES, 64 * 1024);
    const screen = await call("/contacts/new", {
      method: "POST",
      cookie,
      body: stream,
      headers: form,
      duplex: "half",
    } as RequestInit);
    expect(screen.status).toBe(413);
    expect(await screen.text()).toBe("Request body too large (maximum 1 MB)");
    expect(state.pulled).toBeLessThan(4 * MAX_REQUEST_BYTES);
    const api = countingStream(16 * MAX_REQUEST_BYTES, 64 * 1024);
    const res = await call("/api/templates", {
      method: "POST",
      cookie,
      body: api.stream,
      headers: { "Content-Type": "application/json" },
      duplex: "half",
    } as RequestInit);
    expect(res.status).toBe(413);
    expect(await res.json()).toEqual({ message: "Request body too large (maximum 1 MB)" });
  });

  it("bodies under the caps still reach their routes", async () => {
    const res = await call("/login", {
      method: "POST",
      body: new URLSearchParams({ email: "nobody@example.com", password: "x".repeat(100) }),
      headers: form,
    });
    expect(res.status).toBe(401);
  });
});
