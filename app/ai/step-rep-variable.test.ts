// Issue 24, item 8 (the rest): "Generate with AI" for a campaign step names the rep as {{salesRep}} (and the company
// from Organisation), and the token renders at send time from the campaign owner — the sender of its steps.
import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { addCampaignStep } from "~/campaigns/add-campaign-step.server";
import { checkStep, stepSchema } from "~/campaigns/campaign-schema";
import { createCampaign } from "~/campaigns/create-campaign.server";
import { dispatchDueSteps } from "~/campaigns/dispatch-due-steps.server";
import { runEnrollmentJob } from "~/campaigns/run-enrollment-job.server";
import { startCampaign } from "~/campaigns/start-campaign.server";
import type { EnrollCampaignJob, SendJob } from "~/jobs/jobs";
import { sendMessages } from "~/messaging/consume-send-batch.server";
import { createTestContact, uniquePhone, uniqueTag } from "../../tests/contact-factory";
import { createTestUser } from "../../tests/factories";
import { pipeline } from "../../tests/messaging-harness";
import { generateStepContent } from "./generate-step-content.server";
import { stepContentPrompt } from "./prompts/step-content";
import { createOfflineComposer } from "./providers/offline.server";
import { stepContentInput } from "./step-content-schema";

// A Monday 18:00 UTC (11:00 in Phoenix) years before the campaign engine tests' eras: the dispatcher reads every due
// enrolment in the shared database, so this test's clock never reaches another file's leftovers.
const T0 = Date.parse("2020-03-02T18:00:00Z");

describe("{{salesRep}} in generated campaign steps (issue 24, item 8)", () => {
  it("the prompt asks for the rep by {{salesRep}} and the offline composer names the rep and the company", async () => {
    const input = stepContentInput.parse({
      campaignName: "Summer Savings 3-Touch",
      campaignDescription: "Free roof assessment for homeowners",
      stepNumber: 1,
      messageType: "email",
      option: "introduction",
    });
    const prompt = stepContentPrompt(input, "introduction", { company: "Acme Solar", rep: true });
    expect(prompt.system).toMatch(/name them with \{\{salesRep\}\}/);
    for (const messageType of ["sms", "email"] as const) {
      const d = await generateStepContent(
        { providers: [createOfflineComposer()] },
        { ...input, messageType },
        { company: "Acme Solar" },
      );
      expect(`${d.subject ?? ""} ${d.content}`, messageType).toContain("{{salesRep}}");
      expect(d.content, messageType).toContain("Acme Solar");
    }
  });

  it("a step naming {{salesRep}} saves, and each contact receives the campaign owner's name", async () => {
    const clock = { t: T0 };
    const now = () => new Date(clock.t);
    const { deps, queue, twilio } = await pipeline({ clock: now });
    const owner = await createTestUser({ firstName: "Maya", lastName: "Okafor" });
    const contact = await createTestContact(owner.id, {
      firstName: "Ada",
      lastName: uniqueTag("Sol"),
      state: "AZ",
      phone: uniquePhone(["602"]),
    });
    const c = await createCampaign(
      deps.db,
      { name: `Rep ${uniqueTag("c")}`, contactIds: [contact.id] },
      { userId: owner.id, role: "superuser", ipAddress: null },
      now(),
    );
    const content = "Hi {{firstName}}, {{salesRep}} here with a quick solar question.";
    await addCampaignStep(deps.db, c.id, checkStep(stepSchema.parse({ name: "Intro", content })), now());
    await startCampaign(deps.db, queue, c.id, { userId: owner.id, ipAddress: null }, now());
    for (let i = 0; i < 10 && queue.sent.length; i++) {
      const jobs = queue.sent.splice(0) as (SendJob | EnrollCampaignJob)[];
      for (const j of jobs)
        if (j.type === "enroll-campaign") await runEnrollmentJob(j, { db: deps.db, queue, now: now() });
      const sends = jobs.filter((j): j is SendJob => j.type === "send");
      if (sends.length) await sendMessages(sends, deps);
    }
    await dispatchDueSteps(deps.db, queue, now());
    await sendMessages(queue.takeSendJobs(), deps);
    const sent = await deps.db.all<{ content: string; status: string }>(
      sql`SELECT content, status FROM messages WHERE campaign_id = ${c.id}`,
    );
    expect(sent).toEqual([{ content: "Hi Ada, Maya Okafor here with a quick solar question.", status: "sent" }]);
    expect((await twilio.calls()).map((x) => x.body)).toEqual([sent[0].content]);
  });
});
