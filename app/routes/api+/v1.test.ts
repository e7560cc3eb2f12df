import { describe, expect, it } from "vitest";
import { z } from "zod";
import { addCampaignContacts } from "~/campaigns/add-campaign-contacts.server";
import { createCampaign } from "~/campaigns/create-campaign.server";
import type { Operation } from "~/http/api-v1/operation";
import { OPERATIONS } from "~/http/api-v1/operations";
import { WEBHOOK_EVENTS } from "~/db/schema";
import { createTestContact, uniquePhone } from "../../../tests/contact-factory";
import { call, db, signedIn } from "../../../tests/factories";

/**
 * Issue 26 item 5: each /api/v1 operation, through the Worker, refuses what its declared schema refuses (the
 * documented 400 `{ message }`), accepts its documented example with the documented status, and answers in the
 * documented shape — so the published document and the route cannot drift apart.
 */
/** The operation's path with `{id}` as a fresh record of the kind the path names (`{contactId}`: one enrolled in it). */
async function pathOf(op: Operation, userId: number) {
  if (!op.path.includes("{id}")) return op.path;
  const id = op.path.startsWith("/api/v1/campaigns/")
    ? (
        await createCampaign(
          db(),
          { name: `V1 ${crypto.randomUUID().slice(0, 8)}` },
          { userId, role: "superuser", ipAddress: null },
          new Date(),
        )
      ).id
    : (await createTestContact(userId)).id;
  let path = op.path.replace("{id}", String(id));
  if (path.includes("{contactId}")) {
    const contactId = (await createTestContact(userId)).id;
    await addCampaignContacts(db(), id, [contactId], new Date());
    path = path.replace("{contactId}", String(contactId));
  }
  return path;
}

/** The documented example, with what must be unique or real in this database filled in. */
async function exampleOf(op: Operation, userId: number) {
  const body = structuredClone(op.example?.body) as Record<string, unknown> | undefined;
  if (body && "phone" in body) body.phone = uniquePhone();
  if (body && "contactIds" in body)
    body.contactIds = [(await createTestContact(userId)).id, (await createTestContact(userId)).id];
  return body;
}

const withQuery = (path: string, query?: Record<string, string>) =>
  query ? `${path}?${new URLSearchParams(query)}` : path;

describe("/api/v1 operations through the Worker", () => {
  it.each(OPERATIONS.map((op) => [op.operationId, op] as const))("%s: 401 without a caller", async (_, op) => {
    const res = await call(op.path.replace(/\{\w+\}/g, "1"), {
      method: op.method.toUpperCase(),
      ...(op.body ? { json: op.example?.body ?? {} } : {}),
    });
    expect(res.status).toBe(401);
    expect(await res.json()).toEqual({ message: "Unauthorized" });
  });

  // A rawBody operation (POST /api/v1/leads) reads its own body: a per-lead 422 report, tested in v1.leads.test.ts.
  it.each(OPERATIONS.filter((op) => op.body && !op.rawBody).map((op) => [op.operationId, op] as const))(
    "%s: refuses a body its schema refuses with the documented 400",
    async (_, op) => {
      const { user, cookie } = await signedIn();
      const path = await pathOf(op, user.id);
      for (const bad of ["not an object", [], { contactIds: "x", message: 42, firstName: 42 }]) {
        expect(op.body!.safeParse(bad).success, JSON.stringify(bad)).toBe(false);
        const res = await call(path, { method: op.method.toUpperCase(), cookie, json: bad });
        expect(res.status, JSON.stringify(bad)).toBe(400);
        expect(Object.keys(await res.json<object>())).toEqual(["message"]);
      }
    },
  );

  // The paged lists (a `limit`); the leads query's refusal (onDuplicate) is tested in v1.leads.test.ts.
  it.each(OPERATIONS.filter((op) => op.query?.shape.limit).map((op) => [op.operationId, op] as const))(
    "%s: refuses a query its schema refuses with the documented 400",
    async (_, op) => {
      const { user, cookie } = await signedIn();
      expect(op.query!.safeParse({ limit: "0" }).success).toBe(false);
      const res = await call(`${await pathOf(op, user.id)}?limit=0`, { cookie });
      expect(res.status).toBe(400);
      expect(await res.json()).toEqual({ message: "limit must be at least 1" });
    },
  );

  it.each(OPERATIONS.map((op) => [op.operationId, op] as const))(
    "%s: accepts the documented example and answers the documented status and shape",
    async (_, op) => {
      const { user, cookie } = await signedIn();
      const path = withQuery(await pathOf(op, user.id), op.example?.query);
      const body = await exampleOf(op, user.id);
      const res = await call(path, { method: op.method.toUpperCase(), cookie, ...(body ? { json: body } : {}) });
      const json = await res.json();
      expect(res.status, JSON.stringify(json)).toBe(op.success.status);
      // Strict: a field the route answers but the document does not describe is a drift too.
      const shape = op.success.schema instanceof z.ZodObject ? op.success.schema.strict() : op.success.schema;
      if (shape) expect(shape.safeParse(json).error?.issues ?? []).toEqual([]);
    },
  );

  it("answers 405 with Allow for a method no declaration serves (after the guard)", async () => {
    const { cookie } = await signedIn();
    const res = await call("/api/v1/campaigns", { method: "DELETE", cookie });
    expect(res.status).toBe(405);
    expect(res.headers.get("Allow")).toBe("GET");
    expect((await call("/api/v1/campaigns", { method: "DELETE" })).status).toBe(401);
  });

  it("a missing record is the documented 404, and a non-id is a 404 too", async () => {
    const { cookie } = await signedIn();
    expect((await call("/api/v1/contacts/999999999", { cookie })).status).toBe(404);
    expect((await call("/api/v1/contacts/abc", { cookie })).status).toBe(404);
    expect((await call("/api/v1/campaigns/999999999", { cookie })).status).toBe(404);
  });
});

describe("the published contract", () => {
  it("serves /api/v1/openapi.json to anyone, cacheable, with every operation", async () => {
    const res = await call("/api/v1/openapi.json");
    expect(res.status).toBe(200);
    expect(res.headers.get("Cache-Control")).toBe("public, max-age=3600");
    const doc = await res.json<{ openapi: string; paths: Record<string, Record<string, { operationId: string }>> }>();
    expect(doc.openapi).toBe("3.1.0");
    const ids = Object.values(doc.paths).flatMap((m) => Object.values(m).map((o) => o.operationId));
    expect(ids.sort()).toEqual(OPERATIONS.map((o) => o.operationId).sort());
  });

  it("renders /api/v1/docs on the server for anyone, every operation on the page, no outside scripts", async () => {
    const res = await call("/api/v1/docs");
    expect(res.status).toBe(200);
    const html = await res.text();
    for (const op of OPERATIONS) {
      expect(html).toContain(`id="${op.operationId}"`);
      expect(html).toContain(op.path);
    }
    // …and each outbound webhook event with its data fields.
    for (const type of WEBHOOK_EVENTS) expect(html).toContain(`id="event-${type}"`);
    expect(html).toContain("<code>campaign_id</code>");
    expect(html).not.toMatch(/<script[^>]+src="https?:/);
    expect(html).not.toMatch(/<link[^>]+href="https?:/);
  });
});
