/**
 * The offline composer's chat answers: sales ideas and message copy for the Idea Generator, chosen by topic from
 * the question (and its optional context). Deterministic; no network.
 */
import { hash } from "./offline-composer";

type Topic = { match: RegExp; intro: string; ideas: string[]; suggestions: string[] };

const TOPICS: Topic[] = [
  {
    match: /\bobjection|too expensive|can'?t afford|renter|hoa|not interested|push ?back|hesitant\b/i,
    intro: "Objections are questions in disguise. A few ways to answer the common ones:",
    ideas: [
      '"It costs too much": "That is fair. Many homeowners start with a free assessment to see financing and incentive options before deciding anything."',
      '"My roof is old": "We check roof condition first; if it needs work, we tell you before anything else."',
      '"I need to think about it": "Of course. Can I send a one-page summary so you have the facts while you decide?"',
      '"I heard solar is a scam": "Ask us for local installs and licenses; a good installer is happy to show them."',
    ],
    suggestions: ["Write a follow-up SMS for a lead worried about cost", "How do I handle the HOA objection?", "Give me a reply for 'I need to think about it'", "Draft an email with financing options"],
  },
  {
    match: /\bfollow[- ]?up|no (?:reply|response)|ghost|didn'?t (?:reply|respond)|check(?:ing)? in\b/i,
    intro: "Follow-ups work best when each one adds something new. Try this rhythm:",
    ideas: [
      "Day 2 SMS: \"Hi {{firstName}}, just checking you saw my note about a free solar assessment. Any questions?\"",
      "Day 5 email: a short story of a local homeowner's install (no savings figures, just the experience).",
      "Day 10 SMS: offer two concrete times for a 15-minute call.",
      "Day 20: a polite break-up message - people often reply to \"Should I close your file?\"",
    ],
    suggestions: ["Write a break-up SMS for leads who went quiet", "What should my second email say?", "How many follow-ups are too many?", "Create a 4-step follow-up sequence"],
  },
  {
    match: /\bsubject|email|newsletter\b/i,
    intro: "Subject lines that get solar emails opened are short, personal and specific:",
    ideas: [
      '"{{firstName}}, is your roof a good fit for solar?"',
      '"A quick question about your energy bills"',
      '"What homeowners in your area are asking about solar"',
      '"Your free solar assessment - a 2-minute read"',
    ],
    suggestions: ["Write an introduction email for new leads", "Give me 5 more subject lines", "Draft a value email about incentives", "How long should a sales email be?"],
  },
  {
    match: /\bappointment|book|consult|meeting|schedule|site visit\b/i,
    intro: "To turn replies into booked consultations:",
    ideas: [
      "Offer two specific times instead of asking \"when are you free?\".",
      "Keep the first call to 15 minutes and say so.",
      "Confirm by text the day before and include the rep's name.",
      "SMS: \"Great, {{firstName}}! Would Tuesday at 4 or Thursday at 10 work for a 15-min call?\"",
    ],
    suggestions: ["Write an appointment reminder SMS", "What should I cover in a first consultation?", "How do I reduce no-shows?", "Draft a confirmation email"],
  },
  {
    match: /\breferr|neighbor|word of mouth|friend\b/i,
    intro: "Happy customers are the best lead source. Ideas for a referral push:",
    ideas: [
      "Ask right after installation day, when excitement is highest.",
      "Make it easy: \"Reply with a name and number and we will take it from there.\"",
      "Thank every referrer personally, whether or not the referral buys.",
      "Host a small neighborhood info evening at a customer's home (with their permission).",
    ],
    suggestions: ["Write a referral request SMS", "Draft a thank-you email for a referral", "How do I ask for reviews?", "Ideas for a neighborhood event"],
  },
  {
    match: /\bprice|pricing|cost|financ|loan|lease|incentive|tax credit|rebate\b/i,
    intro: "When talking money, be clear and never promise figures you cannot back up:",
    ideas: [
      "Explain the options plainly: cash purchase, loan, lease or power purchase agreement.",
      "Mention that incentives depend on eligibility and point to the official program pages.",
      "Offer a personalized estimate instead of a generic number.",
      "SMS: \"Hi {{firstName}}, happy to walk you through financing options for your home. Want a free estimate?\"",
    ],
    suggestions: ["Write an email comparing financing options", "How do I explain the tax credit simply?", "Draft an SMS offering a free estimate", "What questions do buyers ask about leases?"],
  },
];

const GENERAL: Topic = {
  match: /./,
  intro: "Here are a few ideas for your solar outreach:",
  ideas: [
    "Open with the homeowner, not the product: \"Hi {{firstName}}, have your energy bills changed this year?\"",
    "Lead with a free, no-obligation assessment as the first step.",
    "Time campaigns around seasons: summer bills, spring install slots, year-end planning.",
    "Keep SMS under 160 characters and always include opt-out wording on a first message.",
    "Share local installs and reviews to build trust before talking price.",
  ],
  suggestions: ["Write an introduction SMS for new leads", "Create a 4-step campaign sequence", "How do I handle price objections?", "Give me email subject lines that get opened"],
};

export function composeChatAnswer(message: string, context: string, seed = 0): { response: string; suggestions: string[] } {
  const text = `${message} ${context}`;
  const topic = TOPICS.find((t) => t.match.test(message)) ?? TOPICS.find((t) => t.match.test(text)) ?? GENERAL;
  const start = hash(`${seed}|${message}`) % topic.ideas.length;
  const ideas = [...topic.ideas.slice(start), ...topic.ideas.slice(0, start)].slice(0, 4);
  const about = context.trim() ? `\n\nWith your context in mind (${context.trim().slice(0, 120)}), adapt the wording to your audience.` : "";
  return {
    response: `${topic.intro}\n\n${ideas.map((i) => `- ${i}`).join("\n")}${about}`,
    suggestions: topic.suggestions,
  };
}
