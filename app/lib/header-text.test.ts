import { describe, expect, it } from "vitest";
import { stepSchema } from "~/campaigns/campaign-schema";
import { broadcastSchema } from "~/messaging/send-broadcast.server";
import { individualSchema } from "~/messaging/send-individual.server";
import { manualEmailSchema } from "~/messaging/create-test-send.server";
import { createTemplateSchema } from "~/templates/template-schema";
import { call, createTestUser, loginAs } from "../../tests/factories";
import { SUBJECT_CONTROL_CHARS } from "./header-text";

const BAD = ["Quote\r\nBcc: all@example.com", "Quote\nready", "Quote\u0000", "Tab\there", "Bell\u0007", "Del\u007f"];

describe("email subjects are one line (issue 23)", () => {
  it("every schema with a subject refuses CR, LF, NUL and other control characters with a field error", () => {
    const schemas: [string, (subject: string) => unknown][] = [
      ["template", (subject) => createTemplateSchema.safeParse({ name: "T", content: "c", type: "email", subject })],
      ["broadcast", (subject) => broadcastSchema.safeParse({ type: "email", subject, content: "c", contactIds: [1] })],
      ["individual", (subject) => individualSchema.safeParse({ contactId: 1, type: "email", subject, message: "c" })],
      ["test email", (subject) => manualEmailSchema.safeParse({ email: "a@example.com", subject, content: "c" })],
      [
        "campaign step",
        (subject) =>
          stepSchema.safeParse({ name: "S", messageType: "email", subject, content: "c", delayDays: 0, delayHours: 0 }),
      ],
    ];
    for (const [name, parse] of schemas) {
      expect(parse("A fine subject — ü"), name).toMatchObject({ success: true });
      for (const bad of BAD) {
        const r = parse(bad) as {
          success: boolean;
          error?: { issues: { path: (string | number)[]; message: string }[] };
        };
        expect(r.success, `${name}: ${JSON.stringify(bad)}`).toBe(false);
        expect(r.error!.issues, name).toContainEqual(
          expect.objectContaining({ path: ["subject"], message: SUBJECT_CONTROL_CHARS }),
        );
      }
    }
  });

  it("the API answers 400 with the message", async () => {
    const cookie = await loginAs(await createTestUser());
    const res = await call("/api/templates", {
      method: "POST",
      cookie,
      json: { name: "Header", content: "Hello", type: "email", subject: "Hi\r\nBcc: all@example.com" },
    });
    expect(res.status).toBe(400);
    expect(JSON.stringify(await res.json())).toContain(SUBJECT_CONTROL_CHARS);
  });
});
