import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { messagingConfig } from "./messaging-config.server";
import { sendMessages } from "./consume-send-batch.server";
import { messageRow, pipeline, queueMessage } from "../../tests/messaging-harness";

describe("unsubscribe secret (issue 9 #8)", () => {
  it("never falls back to a fixed string; the local outbox may use SESSION_SECRET, a real provider needs UNSUBSCRIBE_SECRET", () => {
    const base = { ...env, SENDGRID_API_KEY: "", UNSUBSCRIBE_SECRET: "", SESSION_SECRET: "" };
    expect(messagingConfig(base).unsubscribeSecret).toBeNull();
    expect(messagingConfig({ ...base, SESSION_SECRET: "s3ssion" }).unsubscribeSecret).toBe("s3ssion");
    expect(
      messagingConfig({ ...base, SESSION_SECRET: "s3ssion", SENDGRID_API_KEY: "SG.x", EMAIL_FROM: "a@b.co" })
        .unsubscribeSecret,
    ).toBeNull();
    expect(
      messagingConfig({
        ...base,
        SESSION_SECRET: "s3ssion",
        SENDGRID_API_KEY: "SG.x",
        EMAIL_FROM: "a@b.co",
        UNSUBSCRIBE_SECRET: "u",
      }).unsubscribeSecret,
    ).toBe("u");
  });

  it("refuses to send real email without a secret, with a clear error and no provider call", async () => {
    const { deps, sendgrid, queue } = await pipeline({ config: { unsubscribeSecret: null } });
    const id = await queueMessage(deps, queue, {
      channel: "email",
      email: `s${crypto.randomUUID().slice(0, 6)}@example.com`,
      subject: "s",
      content: "x",
    });
    await sendMessages(queue.takeSendJobs(), deps);
    expect(await sendgrid.calls()).toHaveLength(0);
    expect(await messageRow(id)).toMatchObject({
      status: "failed",
      error_message: expect.stringMatching(/UNSUBSCRIBE_SECRET is not configured/),
    });
  });

  it("unsubscribe links are refused (404) when no secret is configured, rather than checked against a known string", async () => {
    const { unsubscribeToken } = await import("./unsubscribe.server");
    const token = await unsubscribeToken("helio-local-unsubscribe", "victim@example.com");
    const { verifyUnsubscribeToken } = await import("./unsubscribe.server");
    expect(await verifyUnsubscribeToken(null, token)).toBeNull();
  });
});
