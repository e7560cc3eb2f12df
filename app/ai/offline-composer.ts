/**
 * The offline composer's copy: solar sales drafts assembled from the request (step position, channel, campaign
 * description as the brief, audience, goal, earlier steps, option/tone, the company and the rep). The campaign name
 * is internal and never written into the copy (decision 025). Deterministic for a seed, varied across options and
 * positions. Pure: no network, no clock.
 */
import { hash } from "./hash";
import { stepTopicCopy } from "./offline-chat";
import type { StepContentInput } from "./step-content-schema";

const pick = <T>(items: readonly T[], seed: string): T => items[hash(seed) % items.length];

const clean = (s: string | null | undefined) => (s ?? "").replace(/\s+/g, " ").trim();

type Cta = { sms: string[]; email: string };

function callToAction(goal: string): Cta {
  const g = goal.toLowerCase();
  if (/appoint|consult|book|meeting|visit|call|survey/.test(g))
    return {
      sms: [
        "Would a quick 15-min call this week work?",
        "Want me to hold a time for a free consultation?",
        "Is Tuesday or Thursday better for a quick call?",
      ],
      email:
        "If it helps, reply with a day and time that suit you and I will set up a short, no-pressure consultation.",
    };
  if (/quote|estimate|proposal|price|pricing/.test(g))
    return {
      sms: [
        "Want a free, no-obligation estimate for your home?",
        "Should I put together a custom quote for you?",
        "Can I send you a personalized estimate?",
      ],
      email: "Reply to this email and I will prepare a personalized, no-obligation estimate for your home.",
    };
  if (/referr/.test(g))
    return {
      sms: [
        "Know a neighbor who would want a look too?",
        "Anyone you know who should hear about this?",
        "Happy to help a friend of yours as well.",
      ],
      email:
        "If you know a neighbor or friend who would like a look too, just reply with their name and I will reach out.",
    };
  return {
    sms: ["Any questions I can answer?", "Worth a quick chat?", "Want me to send a few details?"],
    email: "Simply reply to this email with any questions and I will get back to you personally.",
  };
}

export type ComposeOption = "introduction" | "follow-up" | "value" | "urgency";

const SMS_OPENERS: Record<ComposeOption, string[]> = {
  // {{who}}: "{{salesRep}} with Acme Solar", or just the company (or "our solar team") when no rep signs.
  introduction: [
    "Hi {{firstName}}, this is {{who}}.",
    "Hi {{firstName}}! Reaching out from {{who}}.",
    "Hello {{firstName}}, a quick note from {{who}}.",
  ],
  "follow-up": [
    "Hi {{firstName}}, just following up on my last message.",
    "Hi {{firstName}}, circling back in case my note got buried.",
    "{{firstName}}, checking in after my earlier message.",
  ],
  value: [
    "Hi {{firstName}}, a quick solar tip for homeowners like you.",
    "{{firstName}}, did you know panels can add to your home's value?",
    "Hi {{firstName}}, many neighbors are locking in more predictable energy costs.",
  ],
  urgency: [
    "Hi {{firstName}}, a quick heads-up before this season's install slots fill.",
    "{{firstName}}, incentives where available change over time.",
    "Hi {{firstName}}, install calendars are filling up for this season.",
  ],
};

const SMS_MIDDLES: Record<ComposeOption, string[]> = {
  introduction: [
    "We help homeowners see whether solar fits their roof and budget.",
    "We offer a free look at what solar could mean for your home.",
  ],
  "follow-up": [
    "Happy to answer any questions about solar for your home.",
    "Still happy to walk you through your options, no pressure.",
  ],
  value: [
    "A free assessment shows what your roof could produce.",
    "Solar can make your energy costs more predictable.",
  ],
  urgency: ["We have a few assessment spots left this month.", "Now is a good time to see if your home qualifies."],
};

/** The option a step gets when none was chosen: from its position in the sequence. */
export function defaultOption(position: StepContentInput["stepPosition"]): ComposeOption {
  return position === "initial" ? "introduction" : position === "follow-up" ? "follow-up" : "value";
}

/** Who the copy speaks for: the organisation's company name (settings) and whether {{salesRep}} may sign it. */
export type StepBrand = { company?: string | null; rep?: boolean };

export function composeStepDraft(
  input: StepContentInput,
  option: ComposeOption,
  seed = 0,
  brand: StepBrand = {},
): { content: string; subject: string | null } {
  const description = clean(input.campaignDescription);
  const key = `${seed}|${option}|${input.stepNumber}|${input.messageType}|${description}`;
  const cta = callToAction(clean(input.campaignGoal));
  const company = clean(brand.company);
  const from = company || "our solar team";
  const audience = clean(input.targetAudience);
  const earlier = input.previousSteps.filter((s) => s.stepNumber < input.stepNumber).length;
  // The description is the brief: its topic (battery storage, financing, a quote follow-up...) picks the copy.
  const topic = stepTopicCopy(`${description} ${clean(input.campaignGoal)}`, audience);
  const who = (text: string) => text.replace("{{who}}", brand.rep ? `{{salesRep}} with ${from}` : from);

  if (input.messageType === "sms") {
    // An earlier step already introduced us: later steps never re-introduce, whatever the option.
    const opt: ComposeOption = option === "introduction" && earlier > 0 ? "follow-up" : option;
    const middle = topic ? pick(topic.sms, key + "m") : pick(SMS_MIDDLES[opt], key + "m");
    const parts = [who(pick(SMS_OPENERS[opt], key + "o")), middle, pick(cta.sms, key + "c")];
    return { content: parts.join(" "), subject: null };
  }

  const greeting = pick(["Hi {{firstName}},", "Hello {{firstName}},", "Dear {{firstName}},"], key + "g");
  const intro: Record<ComposeOption, string> = {
    introduction: brand.rep
      ? `My name is {{salesRep}}, and I am reaching out from ${from}.`
      : `I am reaching out from ${from}.`,
    "follow-up":
      earlier > 0
        ? `I wanted to follow up on my ${earlier === 1 ? "last message" : "recent messages"}.`
        : "I wanted to follow up with you about solar for your home.",
    value: "Here is something homeowners often ask us about when they look at solar.",
    urgency: "A quick heads-up: install calendars and incentives where available change through the year.",
  };
  const body: Record<ComposeOption, string[]> = {
    introduction: [
      `We help ${audience || "homeowners"} find out whether solar is a good fit for their roof, usage and budget. The first step is a free assessment with no obligation.`,
      `Our team looks at your roof, your recent bills and incentives where available, then shows you plainly what solar could and could not do for ${audience || "your home"}.`,
    ],
    "follow-up": [
      "Many people have questions about financing, roof condition or how long installation takes. I am happy to answer any of them, with no pressure.",
      "If the timing was not right before, that is completely fine. I can share a short overview so you can decide in your own time.",
    ],
    value: [
      "Solar can make monthly energy costs more predictable, and a well-designed system may add to a home's value. Results depend on your roof, usage and utility rates, which is why we start with a free assessment.",
      "Incentives where available may lower the cost of a system, depending on eligibility. We walk you through what applies to your situation before you commit to anything.",
    ],
    urgency: [
      "Incentive programs and utility rates can change, and installation schedules fill up in busy seasons. Starting with an assessment now keeps your options open.",
      "We still have a few assessment slots this month. Booking one now does not commit you to anything and gives you time to compare options.",
    ],
  };
  const subjects: Record<ComposeOption, string[]> = {
    introduction: [
      company ? `Solar for your home, from ${company}` : "Solar for your home",
      `{{firstName}}, is solar a fit for your home?`,
      "A quick introduction",
    ],
    "follow-up": [
      "Following up on solar for your home",
      `{{firstName}}, any questions about solar?`,
      `Still thinking about solar?`,
    ],
    value: [
      `What solar could mean for your home`,
      `{{firstName}}, a few solar facts worth knowing`,
      `How homeowners use solar to plan energy costs`,
    ],
    urgency: [
      `Assessment slots are filling up`,
      `{{firstName}}, a timely note about solar`,
      `Before this season's schedule fills`,
    ],
  };
  const paragraph = topic ? topic.email[hash(key + "b") % topic.email.length] : pick(body[option], key + "b");
  const signOff = [brand.rep ? "{{salesRep}}" : "Your solar team", ...(company ? [company] : [])];
  const content = [greeting, "", intro[option], "", paragraph, "", cta.email, "", "Best regards,", ...signOff].join(
    "\n",
  );
  const subject =
    topic && option !== "introduction" ? pick(topic.subjects, key + "s") : pick(subjects[option], key + "s");
  return { content, subject };
}
