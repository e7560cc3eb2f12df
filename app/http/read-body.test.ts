import { describe, expect, it } from "vitest";
import { call, createTestUser, loginAs } from "../../tests/factories";
import { countingStream, streamedPost } from "../../tests/counting-stream";
import { uniquePhone } from "../../tests/contact-factory";
import { MAX_JSON_BYTES, readBodyLimited } from "./read-body.server";

describe("JSON bodies (issue 9 #8)", () => {
  it("accept only application/json (with optional parameters)", async () => {
    const cookie = await loginAs(await createTestUser());
    const body = JSON.stringify({ firstName: "Ct", lastName: "Type", phone: uniquePhone() });
    for (const type of [
      "text/plain; application/json",
      "text/plain",
      "application/jsonx",
      "application/json-patch+json",
      "multipart/form-data; x=application/json",
    ]) {
      const res = await call("/api/contacts", { method: "POST", cookie, body, headers: { "Content-Type": type } });
      expect(res.status, type).toBe(415);
    }
    for (const type of ["application/json", "application/json; charset=utf-8", "Application/JSON ;charset=UTF-8"]) {
      const res = await call("/api/contacts", {
        method: "POST",
        cookie,
        body: JSON.stringify({ firstName: "Ct", lastName: "Type", phone: uniquePhone() }),
        headers: { "Content-Type": type },
      });
      expect(res.status, type).toBe(201);
    }
  });

  it("are capped: 413 with a clear message, also when Content-Length is absent or lies", async () => {
    const cookie = await loginAs(await createTestUser());
    const big = JSON.stringify({ firstName: "x".repeat(MAX_JSON_BYTES), lastName: "y", phone: uniquePhone() });
    const res = await call("/api/contacts", {
      method: "POST",
      cookie,
      body: big,
      headers: { "Content-Type": "application/json" },
    });
    expect(res.status).toBe(413);
    expect(await res.json()).toEqual({
      message: `Request body too large (maximum ${MAX_JSON_BYTES / 1024 / 1024} MB)`,
    });
    const { stream } = countingStream(MAX_JSON_BYTES * 4);
    const streamed = await call("/api/auth/login", streamedPost(stream, { "Content-Type": "application/json" }));
    expect(streamed.status).toBe(413);
  });

  it("the reader stops at the limit instead of reading everything", async () => {
    const { stream, state } = countingStream(64 * 1024 * 1024);
    const request = new Request("https://helio.test/x", streamedPost(stream, { "Content-Length": "10" }));
    await expect(readBodyLimited(request, 1024 * 1024, "too big")).rejects.toMatchObject({
      code: "payload_too_large",
      message: "too big",
    });
    expect(state.pulled).toBeLessThan(4 * 1024 * 1024);
  });
});

describe("CSV uploads stop reading at 10 MB (issue 9 #8)", () => {
  it("an upload that is not a form is a 4xx with a message, not a 500", async () => {
    const cookie = await loginAs(await createTestUser());
    for (const path of ["/contacts/upload", "/contacts/quick-send"]) {
      const json = await call(path, {
        method: "POST",
        cookie,
        body: JSON.stringify({ file: "x" }),
        headers: { "Content-Type": "application/json" },
      });
      expect(json.status, path).toBe(415);
      const none = await call(path, { method: "POST", cookie, body: "first,last" });
      expect(none.status, path).toBeGreaterThanOrEqual(400);
      expect(none.status, path).toBeLessThan(500);
      const torn = await call(path, {
        method: "POST",
        cookie,
        body: '--b\r\nContent-Disposition: form-data; name="file"',
        headers: { "Content-Type": "multipart/form-data; boundary=b" },
      });
      expect(torn.status, path).toBe(400);
    }
  });

  it("answers 413 with the size message for a streamed 40 MB upload", async () => {
    const cookie = await loginAs(await createTestUser());
    const boundary = "----helio-test-boundary";
    const head = new TextEncoder().encode(
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="big.csv"\r\nContent-Type: text/csv\r\n\r\nfirstName,lastName,phone\r\n`,
    );
    const { stream: rows, state } = countingStream(40 * 1024 * 1024);
    const reader = rows.getReader();
    let sentHead = false;
    const body = new ReadableStream<Uint8Array>({
      async pull(controller) {
        if (!sentHead) {
          sentHead = true;
          return controller.enqueue(head);
        }
        const { done, value } = await reader.read();
        if (done) controller.close();
        else controller.enqueue(value);
      },
    });
    const res = await call("/contacts/upload", {
      ...streamedPost(body, { "Content-Type": `multipart/form-data; boundary=${boundary}` }),
      cookie,
    });
    expect(res.status).toBe(413);
    expect(await res.text()).toContain("The file is too large (maximum 10 MB)");
    expect(state.pulled).toBeLessThan(40 * 1024 * 1024);
  });
});
