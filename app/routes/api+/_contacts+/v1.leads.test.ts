import { eq, inArray } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import {
  contactResponseTimes,
  contacts,
  leadConsents,
  leadIdempotency,
  suppressions,
  webhookDeliveries,
  webhookSubscriptions,
} from "~/db/schema";
import { createWebhookSubscription } from "~/webhooks/manage-webhook-subscriptions.server";
import { MAX_LEADS_BODY_BYTES } from "~/http/read-body.server";
import { LEAD_CLAIM_LEASE_MS } from "~/contacts/ingest-leads.server";
import { call, createTestUser, db } from "../../../../tests/factories";
import { createTestContact, uniquePhone } from "../../../../tests/contact-factory";
import { bearer, createTestApiKey } from "../../../../tests/api-key-factory";

type Report = {
  created: number;
  updated: number;
  skipped: number;
  invalid: number;
  message?: string;
  leads: { index: number; status: string; contactId?: number; message?: string }[];
};

let userId = 0;
let secret = "";
beforeAll(async () => {
  userId = (await createTestUser()).id;
  secret = (await createTestApiKey(userId, ["leads"], { name: "EnergySage" })).secret;
});

const national = (e164: string) => `(${e164.slice(2, 5)}) ${e164.slice(5, 8)}-${e164.slice(8)}`;
const post = (body: unknown, opts: { query?: string; headers?: Record<string, string>; key?: string } = {}) =>
  call(`/api/v1/leads${opts.query ?? ""}`, {
    method: "POST",
    body: typeof body === "string" ? body : JSON.stringify(body),
    headers: { "Content-Type": "application/json", ...bearer(opts.key ?? secret), ...opts.headers },
  });
const contactByPhone = (phone: string) => db().select().from(contacts).where(eq(contacts.phone, phone)).get();
const consentsOf = (contactId: number) =>
  db().select().from(leadConsents).where(eq(leadConsents.contactId, contactId)).all();

describe("POST /api/v1/leads (decision 035)", () => {
  it("creates one lead with its consent evidence: 201, the contact id, the import's aliases, the phone normalised", async () => {
    const phone = uniquePhone();
    const res = await post(
      {
        "First Name": "Ada",
        last_name: "Lovelace",
        mobile: national(phone),
        Email: "ADA@example.com",
        street_address: "1 Solar Way",
        City: "Austin",
        State: "Texas",
        zip: "78701",
        source: "EnergySage",
        consent_text: "By clicking Submit I agree that Acme Solar may text me <b>at</b> this number.",
        seller_name: "Acme Solar",
        page_url: "https://quotes.example/form",
        ip_address: "203.0.113.9",
        consented_at: "2026-11-26T20:00:00Z",
      },
      { headers: { "CF-Connecting-IP": "198.51.100.7" } },
    );
    expect(res.status).toBe(201);
    const report = (await res.json()) as Report;
    expect(report).toMatchObject({ created: 1, updated: 0, skipped: 0, invalid: 0 });
    const c = await contactByPhone(phone);
    expect(report.leads[0]).toEqual({ index: 0, status: "created", contactId: c!.id });
    expect(c).toMatchObject({
      firstName: "Ada",
      lastName: "Lovelace",
      email: "ada@example.com",
      city: "Austin",
      state: "TX",
      zipCode: "78701",
      consentSource: "lead:EnergySage",
    });
    const [ev] = await consentsOf(c!.id);
    expect(ev).toMatchObject({
      source: "EnergySage",
      consentText: "By clicking Submit I agree that Acme Solar may text me <b>at</b> this number.",
      sellerName: "Acme Solar",
      pageUrl: "https://quotes.example/form",
      ipAddress: "203.0.113.9",
      receivedFromIp: "198.51.100.7",
    });
    expect(ev.consentedAt.toISOString()).toBe("2026-11-26T20:00:00.000Z");
    // The lead.created hook ran after the commit: the speed-to-lead rules kept the lead's time and source.
    const kept = await db().select().from(contactResponseTimes).where(eq(contactResponseTimes.contactId, c!.id)).get();
    expect(kept).toMatchObject({ leadSource: "EnergySage" });
    expect(kept!.leadAt).not.toBeNull();
  });

  it("emits lead.created to a subscribed webhook for the stored lead (the one lead hook, decision 036)", async () => {
    await db().update(webhookSubscriptions).set({ enabled: false }); // subscriptions are global: only this test's
    const admin = await createTestUser({ role: "superuser" });
    const sub = await createWebhookSubscription(
      db(),
      { url: "http://127.0.0.1:9/crm", description: "CRM", events: ["lead.created"], maxPerHour: 600 },
      { userId: admin.id, ipAddress: null },
      new Date(),
      { allowPrivate: true },
    );
    const phone = uniquePhone();
    const res = await post({ first_name: "Lea", last_name: "Webhook", phone, source: "Modernize" });
    expect(res.status).toBe(201);
    const c = await contactByPhone(phone);
    const rows = await db().select().from(webhookDeliveries).where(eq(webhookDeliveries.subscriptionId, sub.id)).all();
    expect(rows.map((r) => r.eventType)).toEqual(["lead.created"]);
    expect(JSON.parse(rows[0].payload).data).toMatchObject({
      contact_id: c!.id,
      phone,
      source: "Modernize",
      created: true,
    });
    await db().update(webhookSubscriptions).set({ enabled: false });
  });

  it("takes a batch (array and { leads }) and reports each lead; the key's name is the default source", async () => {
    const [p1, p2, p3] = [uniquePhone(), uniquePhone(), uniquePhone()];
    const res = await post([
      { name: "Grace Hopper", phone: p1 },
      { firstName: "Alan", lastName: "Turing", cell: p2 },
    ]);
    expect(res.status).toBe(201);
    expect(((await res.json()) as Report).created).toBe(2);
    expect(await contactByPhone(p1)).toMatchObject({ firstName: "Grace", lastName: "Hopper" });
    const ev = await consentsOf((await contactByPhone(p2))!.id);
    expect(ev[0].source).toBe("EnergySage");
    const wrapped = await post({ leads: [{ first_name: "Kat", phone: p3 }] }, { query: "?source=Website" });
    expect(wrapped.status).toBe(201);
    expect((await consentsOf((await contactByPhone(p3))!.id))[0].source).toBe("Website");
  });

  it("takes one form-encoded lead (no-code tools)", async () => {
    const phone = uniquePhone();
    const res = await call("/api/v1/leads", {
      method: "POST",
      body: new URLSearchParams({ "First Name": "Zap", "Phone Number": phone, "TCPA Consent": "I agree" }).toString(),
      headers: { "Content-Type": "application/x-www-form-urlencoded", ...bearer(secret) },
    });
    expect(res.status).toBe(201);
    const c = await contactByPhone(phone);
    expect((await consentsOf(c!.id))[0].consentText).toBe("I agree");
  });

  it("de-duplicates by phone: skip by default (200, the existing id), update on ?onDuplicate=update", async () => {
    const existing = await createTestContact(userId, { firstName: "Old", lastName: "Name", city: "Dallas" });
    const skip = await post({ first_name: "New", last_name: "Name", phone: existing.phone });
    expect(skip.status).toBe(200);
    expect(((await skip.json()) as Report).leads[0]).toMatchObject({ status: "skipped", contactId: existing.id });
    expect((await contactByPhone(existing.phone))!.firstName).toBe("Old");
    expect(await consentsOf(existing.id)).toHaveLength(0);
    const upd = await post(
      { first_name: "New", phone: existing.phone, source: "Modernize" },
      { query: "?onDuplicate=update" },
    );
    expect(upd.status).toBe(200);
    expect(((await upd.json()) as Report).leads[0]).toMatchObject({ status: "updated", contactId: existing.id });
    expect(await contactByPhone(existing.phone)).toMatchObject({ firstName: "New", lastName: "Name", city: "Dallas" });
    expect((await consentsOf(existing.id))[0].source).toBe("Modernize");
    expect((await post({ phone: existing.phone, first_name: "x" }, { query: "?onDuplicate=merge" })).status).toBe(400);
  });

  it("never un-suppresses a STOP: an opted-out contact stays opted out, a suppressed new number is flagged", async () => {
    const stopped = await createTestContact(userId);
    await db()
      .update(contacts)
      .set({ optedOutAt: new Date(), optedOutSource: "STOP" })
      .where(eq(contacts.id, stopped.id));
    const res = await post({ first_name: "Again", phone: stopped.phone }, { query: "?onDuplicate=update" });
    expect(res.status).toBe(200);
    expect((await contactByPhone(stopped.phone))!.optedOutAt).not.toBeNull();
    const fresh = uniquePhone();
    await db().insert(suppressions).values({ channel: "sms", address: fresh, reason: "STOP", createdAt: new Date() });
    expect((await post({ first_name: "Sup", phone: fresh })).status).toBe(201);
    expect(await contactByPhone(fresh)).toMatchObject({ optedOutSource: "STOP" });
  });

  it("replays an Idempotency-Key: the first answer again, one lead; another body with the key is 409", async () => {
    const phone = uniquePhone();
    const key = `idem-${crypto.randomUUID()}`;
    const body = { first_name: "Once", phone };
    const first = await post(body, { headers: { "Idempotency-Key": key } });
    expect(first.status).toBe(201);
    const firstBody = await first.json();
    const again = await post(body, { headers: { "Idempotency-Key": key } });
    expect(again.status).toBe(201);
    expect(again.headers.get("Idempotent-Replayed")).toBe("true");
    expect(await again.json()).toEqual(firstBody);
    const c = await contactByPhone(phone);
    expect(await consentsOf(c!.id)).toHaveLength(1);
    expect(
      (await post({ first_name: "Other", phone: uniquePhone() }, { headers: { "Idempotency-Key": key } })).status,
    ).toBe(409);
    expect(await db().select().from(leadIdempotency).where(eq(leadIdempotency.idempotencyKey, key)).all()).toHaveLength(
      1,
    );
  });

  it("stores nothing when one lead of a batch is invalid: 422 naming it", async () => {
    const [good, alsoGood] = [uniquePhone(), uniquePhone()];
    const res = await post([
      { first_name: "Good", phone: good },
      { first_name: "No phone" },
      { first_name: "Fine", phone: alsoGood },
    ]);
    expect(res.status).toBe(422);
    const report = (await res.json()) as Report;
    expect(report.invalid).toBe(1);
    expect(report.leads[1]).toMatchObject({ status: "invalid", message: "Lead 2: Phone number is required" });
    expect(
      await db()
        .select()
        .from(contacts)
        .where(inArray(contacts.phone, [good, alsoGood]))
        .all(),
    ).toHaveLength(0);
  });

  it("answers malformed 400, oversized 413, too many 413, another type 415", async () => {
    const bad = await post("{not json");
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as Report).message).toBe("Request body must be valid JSON");
    expect((await post([])).status).toBe(400);
    const huge = await post({ first_name: "x".repeat(MAX_LEADS_BODY_BYTES), phone: uniquePhone() });
    expect(huge.status).toBe(413);
    const many = await post(Array.from({ length: 101 }, () => ({ first_name: "A", phone: "+15125550100" })));
    expect(many.status).toBe(413);
    expect(((await many.json()) as Report).message).toContain("At most 100 leads");
    const text = await call("/api/v1/leads", {
      method: "POST",
      body: "hi",
      headers: { "Content-Type": "text/plain", ...bearer(secret) },
    });
    expect(text.status).toBe(415);
  });

  it("answers 401 without a key or with a revoked one, 403 for a key without the leads scope", async () => {
    const anon = await call("/api/v1/leads", { method: "POST", json: { first_name: "A", phone: uniquePhone() } });
    expect(anon.status).toBe(401);
    const revoked = await createTestApiKey(userId, ["leads"], { revoked: true });
    expect((await post({ first_name: "A", phone: uniquePhone() }, { key: revoked.secret })).status).toBe(401);
    const reader = await createTestApiKey(userId, ["read", "contacts:write"]);
    const phone = uniquePhone();
    expect((await post({ first_name: "A", phone }, { key: reader.secret })).status).toBe(403);
    expect(await contactByPhone(phone)).toBeUndefined();
  });

  it("answers a GET with a leads-only key 405 (the method is not served), not 403 for the missing read scope", async () => {
    const res = await call("/api/v1/leads", { headers: bearer(secret) });
    expect(res.status).toBe(405);
    expect(res.headers.get("Allow")).toBe("POST");
    expect((await call("/api/v1/leads")).status).toBe(401);
  });

  it("re-claims an Idempotency-Key whose claim outlived its lease (the Worker died before recording the answer)", async () => {
    const phone = uniquePhone();
    const key = `idem-${crypto.randomUUID()}`;
    const body = { first_name: "Orphan", phone };
    expect((await post(body, { headers: { "Idempotency-Key": key } })).status).toBe(201);
    const claim = eq(leadIdempotency.idempotencyKey, key);
    // What a Worker that died after the batch leaves: the claim (status 0, no answer) and the stored lead.
    const orphan = { status: 0, response: "" };
    await db().update(leadIdempotency).set(orphan).where(claim);
    const fresh = await post(body, { headers: { "Idempotency-Key": key } });
    expect(fresh.status).toBe(409);
    expect(((await fresh.json()) as Report).message).toContain("still in progress");
    await db()
      .update(leadIdempotency)
      .set({ ...orphan, createdAt: new Date(Date.now() - LEAD_CLAIM_LEASE_MS - 1000) })
      .where(claim);
    // Past the lease the retry runs again: the lead exists, so it is reported (skipped, its id), never doubled.
    const retried = await post(body, { headers: { "Idempotency-Key": key } });
    expect(retried.status).toBe(200);
    const report = (await retried.json()) as Report;
    const c = await contactByPhone(phone);
    expect(report.leads[0]).toMatchObject({ status: "skipped", contactId: c!.id });
    expect(await consentsOf(c!.id)).toHaveLength(1);
    const row = await db().select().from(leadIdempotency).where(claim).get();
    expect(row).toMatchObject({ status: 200 });
    // The recorded answer replays as before.
    const replay = await post(body, { headers: { "Idempotency-Key": key } });
    expect(replay.headers.get("Idempotent-Replayed")).toBe("true");
  });
});
