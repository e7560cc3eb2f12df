/**
 * The offline composer's copy: solar sales drafts assembled from the request (step position, channel, campaign name
 * and description, audience, goal, earlier steps, option/tone). Deterministic for a seed, varied across options and
 * positions. Pure: no network, no clock.
 */
import type { StepContentInput } from "./step-content-schema";

/** FNV-1a: a small stable hash so the same request and seed always pick the same lines. */
export function hash(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

const pick = <T>(items: readonly T[], seed: string): T => items[hash(seed) % items.length];

const clean = (s: string | null | undefined) => (s ?? "").replace(/\s+/g, " ").trim();

/** The first sentence of a description, short enough to quote. */
function gist(description: string, max = 90): string {
  const first = clean(description).split(/(?<=[.!?])\s/)[0] ?? "";
  if (first.length <= max) return first.replace(/[.!?]+$/, "");
  return first.slice(0, max).replace(/\s+\S*$/, "");
}

type Cta = { sms: string[]; email: string };

function callToAction(goal: string): Cta {
  const g = goal.toLowerCase();
  if (/appoint|consult|book|meeting|visit|call|survey/.test(g))
    return {
      sms: ["Would a quick 15-min call this week work?", "Want me to hold a time for a free consultation?", "Is Tuesday or Thursday better for a quick call?"],
      email: "If it helps, reply with a day and time that suit you and I will set up a short, no-pressure consultation.",
    };
  if (/quote|estimate|proposal|price|pricing/.test(g))
    return {
      sms: ["Want a free, no-obligation estimate for your home?", "Should I put together a custom quote for you?", "Can I send you a personalized estimate?"],
      email: "Reply to this email and I will prepare a personalized, no-obligation estimate for your home.",
    };
  if (/referr/.test(g))
    return {
      sms: ["Know a neighbor who would want a look too?", "Anyone you know who should hear about this?", "Happy to help a friend of yours as well."],
      email: "If you know a neighbor or friend who would like a look too, just reply with their name and I will reach out.",
    };
  return {
    sms: ["Any questions I can answer?", "Worth a quick chat?", "Want me to send a few details?"],
    email: "Simply reply to this email with any questions and I will get back to you personally.",
  };
}

export type ComposeOption = "introduction" | "follow-up" | "value" | "urgency";

const SMS_OPENERS: Record<ComposeOption, string[]> = {
  introduction: [
    "Hi {{firstName}}, this is the {{campaignName}} team.",
    "Hi {{firstName}}! Reaching out from {{campaignName}}.",
    "Hello {{firstName}}, quick note from our solar team.",
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
    "{{firstName}}, current solar incentives will not last forever.",
    "Hi {{firstName}}, install calendars are filling up for this season.",
  ],
};

const SMS_MIDDLES: Record<ComposeOption, string[]> = {
  introduction: ["We help homeowners see whether solar fits their roof and budget.", "We offer a free look at what solar could mean for your home."],
  "follow-up": ["Happy to answer any questions about solar for your home.", "Still happy to walk you through your options, no pressure."],
  value: ["A free assessment shows what your roof could produce.", "Solar can make your energy costs more predictable."],
  urgency: ["We have a few assessment spots left this month.", "Now is a good time to see if your home qualifies."],
};

/** The option a step gets when none was chosen: from its position in the sequence. */
export function defaultOption(position: StepContentInput["stepPosition"]): ComposeOption {
  return position === "initial" ? "introduction" : position === "follow-up" ? "follow-up" : "value";
}

export function composeStepDraft(input: StepContentInput, option: ComposeOption, seed = 0): { content: string; subject: string | null } {
  const key = `${seed}|${option}|${input.stepNumber}|${input.messageType}|${input.campaignName}`;
  const cta = callToAction(clean(input.campaignGoal));
  const name = clean(input.campaignName) || "our solar program";
  const about = gist(input.campaignDescription ?? "");
  const audience = clean(input.targetAudience);
  const earlier = input.previousSteps.filter((s) => s.stepNumber < input.stepNumber).length;

  if (input.messageType === "sms") {
    // An earlier step already introduced us: later steps never re-introduce, whatever the option.
    const opt: ComposeOption = option === "introduction" && earlier > 0 ? "follow-up" : option;
    const parts = [pick(SMS_OPENERS[opt], key + "o"), pick(SMS_MIDDLES[opt], key + "m"), pick(cta.sms, key + "c")];
    return { content: parts.join(" "), subject: null };
  }

  const greeting = pick(["Hi {{firstName}},", "Hello {{firstName}},", "Dear {{firstName}},"], key + "g");
  const intro: Record<ComposeOption, string> = {
    introduction: `I am reaching out about ${name}${about ? `: ${about.charAt(0).toLowerCase()}${about.slice(1)}` : ""}.`,
    "follow-up": earlier > 0 ? `I wanted to follow up on my ${earlier === 1 ? "last message" : "recent messages"} about ${name}.` : `I wanted to follow up about ${name}.`,
    value: `Here is something homeowners often ask us about when looking at ${name}.`,
    urgency: `A quick heads-up about ${name}: install calendars and current incentives change through the year.`,
  };
  const body: Record<ComposeOption, string[]> = {
    introduction: [
      `We help ${audience || "homeowners"} find out whether solar is a good fit for their roof, usage and budget. The first step is a free assessment with no obligation.`,
      `Our team looks at your roof, your recent bills and local incentives, then shows you plainly what solar could and could not do for ${audience || "your home"}.`,
    ],
    "follow-up": [
      "Many people have questions about financing, roof condition or how long installation takes. I am happy to answer any of them, with no pressure.",
      "If the timing was not right before, that is completely fine. I can share a short overview so you can decide in your own time.",
    ],
    value: [
      "Solar can make monthly energy costs more predictable, and a well-designed system may add to a home's value. Results depend on your roof, usage and utility rates, which is why we start with a free assessment.",
      "Federal and local incentives may lower the cost of a system, depending on eligibility. We walk you through what applies to your situation before you commit to anything.",
    ],
    urgency: [
      "Incentive programs and utility rates can change, and installation schedules fill up in busy seasons. Starting with an assessment now keeps your options open.",
      "We still have a few assessment slots this month. Booking one now does not commit you to anything and gives you time to compare options.",
    ],
  };
  const subjects: Record<ComposeOption, string[]> = {
    introduction: [`Solar for your home: ${name}`, `{{firstName}}, is solar a fit for your home?`, `An introduction from ${name}`],
    "follow-up": [`Following up: ${name}`, `{{firstName}}, any questions about solar?`, `Still thinking about solar?`],
    value: [`What solar could mean for your home`, `{{firstName}}, a few solar facts worth knowing`, `How homeowners use solar to plan energy costs`],
    urgency: [`Assessment slots are filling up`, `{{firstName}}, a timely note about solar`, `Before this season's schedule fills`],
  };
  const content = [greeting, "", intro[option], "", pick(body[option], key + "b"), "", cta.email, "", "Best regards,", "Your solar team"].join("\n");
  return { content, subject: pick(subjects[option], key + "s") };
}
