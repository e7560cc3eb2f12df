import type { ActionFunctionArgs } from "@remix-run/cloudflare";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import type { FormFailure } from "~/components/form-failure";
import { AppError } from "~/lib/app-error";
import { createTestUser, db, loginAs, ORIGIN } from "../../tests/factories";
import { formAction } from "./form-action.server";
import { asList, intentError, withDefaults } from "./form-schema";

// formAction called as a route would call it: a real session (D1), a posted form, the reply it gives back.
const argsFor = (cookie: string | null, body: BodyInit, headers: Record<string, string> = {}) =>
  ({
    request: new Request(ORIGIN + "/screen", {
      method: "POST",
      body,
      headers: { ...(cookie ? { Cookie: cookie } : {}), ...headers },
    }),
    context: { db: db(), clock: () => new Date() },
    params: {},
  }) as unknown as ActionFunctionArgs;

const form = (fields: Record<string, string | string[]>) => {
  const fd = new FormData();
  for (const [k, v] of Object.entries(fields)) for (const one of [v].flat()) fd.append(k, one);
  return fd;
};

/** The reply's body and status, whichever way formAction answered (action data, or a Response). */
async function reply(out: unknown): Promise<{ status: number; body: FormFailure }> {
  if (out instanceof Response) return { status: out.status, body: (await out.json()) as FormFailure };
  const d = out as { data: FormFailure; init?: { status?: number } };
  return { status: d.init?.status ?? 200, body: d.data };
}

const signedIn = async (role: "user" | "superuser" = "user") => loginAs(await createTestUser({ role }));

const schema = withDefaults(
  { name: "" },
  z.discriminatedUnion(
    "intent",
    [
      z.object({
        intent: z.literal("save"),
        name: z.string().min(1, "Name is required"),
        password: z.string().optional(),
        ids: asList(z.array(z.string())),
      }),
      z.object({ intent: z.literal("delete") }),
    ],
    intentError(),
  ),
);

describe("formAction", () => {
  it("guards first: no session is the login redirect, the wrong role a 403", async () => {
    await expect(formAction(argsFor(null, form({ intent: "save" })), { schema }, () => "ran")).rejects.toMatchObject({
      status: 302,
    });
    await expect(
      formAction(argsFor(await signedIn(), form({ intent: "save" })), { schema, role: "superuser" }, () => "ran"),
    ).rejects.toMatchObject({ status: 403 });
  });

  it("a form that does not parse is the one FormFailure: 400, the field, every field error, what was typed minus hidden fields", async () => {
    const out = await formAction(
      argsFor(await signedIn(), form({ intent: "save", name: "", password: "secret" })),
      { schema, title: "Failed to save", hide: ["password"] },
      () => "ran",
    );
    const { status, body } = await reply(out);
    expect(status).toBe(400);
    expect(body).toMatchObject({
      ok: false,
      code: "validation",
      message: "Name is required",
      field: "name",
      title: "Failed to save",
      invalid: true,
      intent: "save",
    });
    expect(body.fieldErrors).toEqual({ name: ["Name is required"] });
    expect(body.values).toEqual({ intent: "save", name: "" });
  });

  it("an intent no button has is 'Unknown action'; repeated boxes arrive as a list", async () => {
    const cookie = await signedIn();
    expect(
      (await reply(await formAction(argsFor(cookie, form({ intent: "nope" })), { schema }, () => "ran"))).body,
    ).toMatchObject({ message: "Unknown action", field: "intent" });
    const one = await formAction(
      argsFor(cookie, form({ intent: "save", name: "A", ids: "7" })),
      { schema },
      (input) => input,
    );
    expect(one).toMatchObject({ intent: "save", name: "A", ids: ["7"] });
  });

  it("run gets the audited actor: the signed-in user's id and the caller's address", async () => {
    const user = await createTestUser();
    const out = await formAction(
      argsFor(await loginAs(user), form({ intent: "delete" }), { "CF-Connecting-IP": "203.0.113.9" }),
      { schema },
      (_input, { actor }) => actor,
    );
    expect(out).toEqual({ userId: user.id, ipAddress: "203.0.113.9" });
  });

  it("an AppError from the domain keeps its status, message, field and title; a Response passes through; a bug is rethrown", async () => {
    const cookie = await signedIn();
    const refused = await reply(
      await formAction(argsFor(cookie, form({ intent: "delete" })), { schema, title: "Failed to delete" }, () => {
        throw new AppError("conflict", "Only a draft can be deleted");
      }),
    );
    expect(refused.status).toBe(409);
    expect(refused.body).toMatchObject({
      ok: false,
      code: "conflict",
      message: "Only a draft can be deleted",
      title: "Failed to delete",
      invalid: false,
      fieldErrors: {},
    });
    await expect(
      formAction(argsFor(cookie, form({ intent: "delete" })), { schema }, () =>
        Promise.reject(new Response("Not found", { status: 404 })),
      ),
    ).rejects.toMatchObject({ status: 404 });
    await expect(
      formAction(argsFor(cookie, form({ intent: "delete" })), { schema }, () => Promise.reject(new TypeError("bug"))),
    ).rejects.toThrow("bug");
  });

  it("reads the body only up to its cap, and only a form", async () => {
    const cookie = await signedIn();
    const big = await reply(
      await formAction(
        argsFor(cookie, form({ intent: "save", name: "x".repeat(2000) })),
        { schema, limit: { maxBytes: 1000, message: "Too big" } },
        () => "ran",
      ),
    );
    expect(big).toMatchObject({ status: 413, body: { code: "payload_too_large", message: "Too big" } });
    const json = await reply(
      await formAction(
        argsFor(cookie, '{"intent":"save"}', { "Content-Type": "application/json" }),
        { schema },
        () => "ran",
      ),
    );
    expect(json.status).toBe(415);
  });

  it("failureRedirect answers a refused run, never a form that did not parse; resource routes get JSON", async () => {
    const cookie = await signedIn();
    const failureRedirect = (f: FormFailure) =>
      new Response(null, { status: 302, headers: { Location: `/back?e=${encodeURIComponent(f.message)}` } });
    const refused = (await formAction(argsFor(cookie, form({ intent: "delete" })), { schema, failureRedirect }, () => {
      throw new AppError("not_found", "Campaign not found");
    })) as unknown as Response;
    expect(refused.status).toBe(302);
    expect(refused.headers.get("Location")).toBe("/back?e=Campaign%20not%20found");
    expect(
      (await reply(await formAction(argsFor(cookie, form({})), { schema, failureRedirect }, () => "ran"))).status,
    ).toBe(400);
    const resource = await formAction(
      argsFor(cookie, form({ intent: "save" })),
      { schema, resource: true },
      () => "ran",
    );
    expect(resource).toBeInstanceOf(Response);
    expect((await reply(resource)).body.message).toBe("Name is required");
  });
});
