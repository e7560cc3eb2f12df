import { describe, expect, it } from "vitest";
import { call, createTestUser, db, expectSessionNeeded, loginAs } from "../../tests/factories";
import { createTemplate } from "./create-template.server";
import { pickTemplate } from "./pick-template.server";
import { TEMPLATE_REQUIRED } from "./template-schema";

async function cookie() {
  return loginAs(await createTestUser());
}

describe("/api/templates", () => {
  it("needs a session on every route", async () => {
    await expectSessionNeeded([
      ["/api/templates", "GET"],
      ["/api/templates", "POST"],
      ["/api/templates/1", "GET"],
      ["/api/templates/1", "PUT"],
      ["/api/templates/1", "DELETE"],
    ]);
  });

  it("refuses a missing name or content with the SPEC message", async () => {
    const c = await cookie();
    for (const bad of [
      {},
      { name: "x" },
      { content: "y" },
      { name: "   ", content: "y" },
      { name: "x", content: "  " },
      { name: null, content: 3 },
    ]) {
      const res = await call("/api/templates", { method: "POST", cookie: c, json: bad });
      expect(res.status, JSON.stringify(bad)).toBe(400);
      expect((await res.json<any>()).message).toBe(TEMPLATE_REQUIRED);
    }
    const badType = await call("/api/templates", {
      method: "POST",
      cookie: c,
      json: { name: "x", content: "y", type: "fax" },
    });
    expect(badType.status).toBe(400);
  });

  it("computes variables on the server, ignoring any sent; keeps a subject only for email", async () => {
    const c = await cookie();
    const res = await call("/api/templates", {
      method: "POST",
      cookie: c,
      json: {
        name: "Intro",
        type: "sms",
        subject: "ignored",
        content: "Hi {{firstName}}, {{ company }} here. {{firstName}} again {{notAVar}} {{ bad token }}",
        variables: ["evil"],
      },
    });
    expect(res.status).toBe(201);
    const t = await res.json<any>();
    expect(t).toMatchObject({
      name: "Intro",
      type: "sms",
      subject: null,
      variables: ["firstName", "company", "notAVar"],
    });
    expect(typeof t.id).toBe("number");

    const email = await (
      await call("/api/templates", {
        method: "POST",
        cookie: c,
        json: { name: "Mail", type: "email", subject: "Hello {{firstName}}", content: "Body" },
      })
    ).json<any>();
    expect(email).toMatchObject({ type: "email", subject: "Hello {{firstName}}", variables: [] });
  });

  it("lists newest first with a keyset cursor, gets, updates (variables recomputed) and deletes", async () => {
    const c = await cookie();
    const ids: number[] = [];
    for (const n of [1, 2, 3])
      ids.push(
        (
          await (
            await call("/api/templates", { method: "POST", cookie: c, json: { name: `T${n}`, content: `c${n}` } })
          ).json<any>()
        ).id,
      );
    const first = await call("/api/templates?limit=2", { cookie: c });
    expect(first.status).toBe(200);
    const page1 = await first.json<any[]>();
    expect(page1.map((t) => t.id)).toEqual([ids[2], ids[1]]);
    const cursor = first.headers.get("X-Next-Cursor");
    expect(cursor).toBe(String(ids[1]));
    const page2 = await (await call(`/api/templates?limit=2&after=${cursor}`, { cookie: c })).json<any[]>();
    expect(page2[0].id).toBe(ids[0]);
    expect((await call("/api/templates?limit=0", { cookie: c })).status).toBe(400);

    expect(await (await call(`/api/templates/${ids[0]}`, { cookie: c })).json<any>()).toMatchObject({
      id: ids[0],
      name: "T1",
      content: "c1",
    });
    const put = await call(`/api/templates/${ids[0]}`, {
      method: "PUT",
      cookie: c,
      json: { content: "Now {{promoCode}}" },
    });
    expect(put.status).toBe(200);
    expect(await put.json<any>()).toMatchObject({ name: "T1", content: "Now {{promoCode}}", variables: ["promoCode"] });
    const blank = await call(`/api/templates/${ids[0]}`, { method: "PUT", cookie: c, json: { content: "" } });
    expect([blank.status, (await blank.json<any>()).message]).toEqual([400, TEMPLATE_REQUIRED]);

    expect((await call(`/api/templates/${ids[0]}`, { method: "DELETE", cookie: c })).status).toBe(204);
    expect((await call(`/api/templates/${ids[0]}`, { cookie: c })).status).toBe(404);
    expect((await call(`/api/templates/${ids[0]}`, { method: "DELETE", cookie: c })).status).toBe(404);
  });

  it("unknown ids are 404", async () => {
    const c = await cookie();
    for (const id of ["999999999", "abc", "0"]) {
      expect((await call(`/api/templates/${id}`, { cookie: c })).status).toBe(404);
      expect((await call(`/api/templates/${id}`, { method: "PUT", cookie: c, json: { name: "x" } })).status).toBe(404);
      expect((await call(`/api/templates/${id}`, { method: "DELETE", cookie: c })).status).toBe(404);
    }
  });
});

describe("pickTemplate (the no-JS picker's ?template=<id>)", () => {
  it("returns the picked template, or none for an unknown or bad id", async () => {
    const user = await createTestUser();
    const t = await createTemplate(
      db(),
      { name: "Pick me", type: "email", subject: "S", content: "Hi {{firstName}}" },
      user.id,
      new Date(),
    );
    const hit = await pickTemplate(db(), new URL(`http://x/testing?tab=manual&template=${t.id}`));
    expect(hit.picked).toMatchObject({ id: t.id, subject: "S", content: "Hi {{firstName}}" });
    expect(hit.templates.some((x) => x.id === t.id)).toBe(true);
    expect((await pickTemplate(db(), new URL("http://x/testing?template=999999999"))).picked).toBeNull();
    expect((await pickTemplate(db(), new URL("http://x/testing?template=abc"))).picked).toBeNull();
    expect((await pickTemplate(db(), new URL("http://x/testing"))).picked).toBeNull();
  });
});
