import assert from "node:assert/strict";
import { it } from "node:test";
import { describeEachMode, sharedBrowser, signedInPage } from "./browser.mjs";
import { phoneInCallingHours, randomPhone, stateOfPhone, toast, until } from "./lib.mjs";
import { E2E_USERS } from "./server.mjs";
import { DEFAULT_FROM, signedInbound, twilioModeServer } from "./twilio-mode.mjs";

// Issue 27, "done when": two reps on one Helio each get their own leads, text from their own numbers, see their own
// queue, and hand a conversation over — JS on and off. Twilio mode (its own `wrangler dev` on free ports, against the
// loopback fake Twilio, which records the From of every send and signs the inbound webhook as Twilio does).

const browser = sharedBrowser();
const running = twilioModeServer({ publicBaseUrl: "https://helio-e2e-team.example.com" });
const [repA, repB] = [E2E_USERS.user, E2E_USERS.repB];
const nameOf = (u) => `${u.first} ${u.last}`;
const signIn = (mode, user) => signedInPage(browser(), mode, user, { baseURL: running().server.base });

/** A homeowner's text to one of our numbers, as Twilio posts it. */
const inbound = (from, to, body) => signedInbound(running(), { from, to, body });

/** The From of every text the fake Twilio took for `to`. */
const fromsTo = (to) =>
  running()
    .twilio.calls.filter((c) => c.to === to && c.httpStatus === 201)
    .map((c) => c.from);

describeEachMode("a team of two reps", (mode) => {
  it("each rep gets their own leads, texts from their own number, works their own queue, and hands one over", async (t) => {
    const { twilio, server } = running();
    const homes = [phoneInCallingHours(), phoneInCallingHours()];
    if (homes.some((h) => !h)) return t.skip("the one hour a day no US zone is in calling hours");
    const numbers = [randomPhone(), randomPhone()];
    twilio.addIncomingNumbers([DEFAULT_FROM, ...numbers]);
    const stamp = `${mode.name}${Date.now()}`;

    // A superuser gives each rep a number of the account on the users screen (one the account lacks is refused).
    const admin = await signIn(mode, E2E_USERS.admin);
    const listed = await (await admin.context.request.get(server.base + "/api/users")).json();
    const idOf = (u) => (listed.users ?? listed).find((x) => x.email === u.email).id;
    for (const [i, rep] of [repA, repB].entries()) {
      await admin.page.goto(`/user-analytics/users/${idOf(rep)}`);
      if (i === 0) {
        // A number the Twilio account does not have is refused with the reason, beside the field (decision 045).
        const stranger = randomPhone();
        await admin.page.getByLabel("Sending number").fill(stranger);
        await admin.page.getByRole("button", { name: "Save sending number" }).click();
        await admin.page.getByText(`${stranger} is not a phone number in this Twilio account`).first().waitFor();
      }
      await admin.page.getByLabel("Sending number").fill(numbers[i]);
      await admin.page.getByRole("button", { name: "Save sending number" }).click();
      await toast(admin.page, "Sending number saved").waitFor();
    }
    await admin.context.close();

    // Each rep adds their own lead (a door-knock is the rep's: decision 048) and texts it from the contact page.
    const reps = [];
    for (const [i, rep] of [repA, repB].entries()) {
      const session = await signIn(mode, rep);
      const lead = { first: ["Ana", "Ben"][i], last: `Team${stamp}` };
      const res = await session.context.request.post(server.base + "/api/contacts", {
        // The state of the number's zone: a contact of unknown state is held to every state's rule at once.
        data: { firstName: lead.first, lastName: lead.last, phone: homes[i], state: stateOfPhone(homes[i]) },
        headers: { Origin: server.base },
      });
      assert.equal(res.status(), 201, await res.text());
      const created = await res.json();
      lead.id = created.contact?.id ?? created.id;
      await session.page.goto(`/contacts/${lead.id}`);
      await session.page.getByTestId("contact-owner").getByText(nameOf(rep)).waitFor();
      const text = `Hi ${lead.first}, ${rep.first} here from the solar visit (${mode.name})`;
      await session.page.getByLabel("Reply", { exact: true }).fill(text);
      await session.page.getByRole("button", { name: "Send reply" }).click();
      await session.page.getByTestId("thread").getByText(text).waitFor();
      await until(() => fromsTo(homes[i]).length > 0, `${rep.first}'s text at the fake Twilio`, 30_000);
      // From the rep's own number, not the shared one.
      assert.deepEqual(fromsTo(homes[i]), [numbers[i]]);
      reps.push({ rep, lead, ...session });
    }
    const [a, b] = reps;

    // The homeowners answer the number they know; each reply lands in its rep's queue (Mine), not the other's.
    await inbound(homes[0], numbers[0], `Ana here, what would it cost? ${stamp}`);
    await inbound(homes[1], numbers[1], `Ben here, send me numbers ${stamp}`);
    const row = (page, lead) => page.getByTestId("conversation-row").filter({ hasText: `${lead.first} ${lead.last}` });
    for (const [me, other] of [
      [a, b],
      [b, a],
    ]) {
      await until(
        async () => {
          await me.page.goto("/messages/conversations");
          return (await row(me.page, me.lead).count()) > 0;
        },
        `${me.rep.first}'s lead in their queue`,
        30_000,
      );
      assert.equal(await row(me.page, other.lead).count(), 0, `${me.rep.first} sees the other rep's conversation`);
      // The other rep's contact is not found, not merely hidden.
      const res = await me.page.goto(`/contacts/${other.lead.id}`);
      assert.equal(res.status(), 404);
    }

    // The hand-off: rep A (the setter) gives Ana to rep B (the closer) with a note, and lands on their own list.
    const note = `Sat Tuesday, over to ${repB.first} (${mode.name})`;
    await a.page.goto(`/contacts/${a.lead.id}`);
    await a.page.getByLabel("Assign to").selectOption({ label: nameOf(repB) });
    await a.page.getByLabel("Note", { exact: true }).fill(note);
    await a.page.getByRole("button", { name: "Save owner" }).click();
    await toast(a.page, "Owner set").waitFor();
    await a.page.waitForURL(/\/contacts(\?|$)/);
    await a.page.goto("/messages/conversations");
    assert.equal(await row(a.page, a.lead).count(), 0, "the handed-over conversation left A's queue");

    // Rep B now has both in Mine, reads the note in Ana's thread, and answers from the number Ana knows (sticky).
    await b.page.goto("/messages/conversations");
    await row(b.page, a.lead).waitFor();
    await row(b.page, b.lead).waitFor();
    await b.page.goto(`/contacts/${a.lead.id}`);
    await b.page.getByTestId("thread").getByText(note).waitFor();
    const answer = `Hi Ana, ${repB.first} here, see you Tuesday (${mode.name})`;
    await b.page.getByLabel("Reply", { exact: true }).fill(answer);
    await b.page.getByRole("button", { name: "Send reply" }).click();
    await b.page.getByTestId("thread").getByText(answer).waitFor();
    await until(() => fromsTo(homes[0]).length > 1, "the closer's text at the fake Twilio", 30_000);
    assert.deepEqual(fromsTo(homes[0]), [numbers[0], numbers[0]]);

    await a.context.close();
    await b.context.close();
  });
});
