/**
 * The offline composer's chat answers for the Idea Generator (decision 025). A request for copy ("3 friendly texts
 * for renters about battery storage", "5 subject lines") is read into a brief and answered from solar copy building
 * blocks; a follow-up ("make them shorter", "more casual", "another one") transforms the brief of the request it
 * follows; anything else gets sales ideas chosen by topic. Deterministic (picks are seeded from the request text);
 * no network.
 */
import { hash } from "./hash";
import type { ChatTurn } from "./prompts/chat";

type Topic = {
  match: RegExp;
  intro: string;
  ideas: string[];
  suggestions: string[];
  /** A sequence: shown in order, never rotated. */ ordered?: boolean;
};

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
    suggestions: [
      "Write a follow-up SMS for a lead worried about cost",
      "How do I handle the HOA objection?",
      "Give me a reply for 'I need to think about it'",
      "Draft an email with financing options",
    ],
  },
  {
    match: /\bfollow[- ]?up|no (?:reply|response)|ghost|didn'?t (?:reply|respond)|check(?:ing)? in\b/i,
    intro: "Follow-ups work best when each one adds something new. Try this rhythm:",
    ordered: true,
    ideas: [
      'Day 2 SMS: "Hi {{firstName}}, just checking you saw my note about a free assessment for solar. Any questions?"',
      "Day 5 email: a short story of a local homeowner's install (no savings figures, just the experience).",
      "Day 10 SMS: offer two concrete times for a 15-minute call.",
      'Day 20: a polite break-up message - people often reply to "Should I close your file?"',
    ],
    suggestions: [
      "Write a break-up SMS for leads who went quiet",
      "What should my second email say?",
      "How many follow-ups are too many?",
      "Create a 4-step follow-up sequence",
    ],
  },
  {
    match: /\bsubject|email|newsletter\b/i,
    intro: "Subject lines that get solar emails opened are short, personal and specific:",
    ideas: [
      '"{{firstName}}, is your roof a good fit for solar?"',
      '"A quick question about your energy bills"',
      '"What homeowners in your area are asking about solar"',
      '"Your free assessment - a 2-minute read"',
    ],
    suggestions: [
      "Write an introduction email for new leads",
      "Give me 5 more subject lines",
      "Draft a value email about incentives",
      "How long should a sales email be?",
    ],
  },
  {
    match: /\bappointment|book|consult|meeting|schedule|site visit\b/i,
    intro: "To turn replies into booked consultations:",
    ideas: [
      'Offer two specific times instead of asking "when are you free?".',
      "Keep the first call to 15 minutes and say so.",
      "Confirm by text the day before and include the rep's name.",
      'SMS: "Great, {{firstName}}! Would Tuesday at 4 or Thursday at 10 work for a 15-min call?"',
    ],
    suggestions: [
      "Write an appointment reminder SMS",
      "What should I cover in a first consultation?",
      "How do I reduce no-shows?",
      "Draft a confirmation email",
    ],
  },
  {
    match: /\breferr|neighbor|word of mouth|friend\b/i,
    intro: "Happy customers are the best lead source. Ideas for a referral push:",
    ideas: [
      "Ask right after installation day, when excitement is highest.",
      'Make it easy: "Reply with a name and number and we will take it from there."',
      "Thank every referrer personally, whether or not the referral buys.",
      "Host a small neighborhood info evening at a customer's home (with their permission).",
    ],
    suggestions: [
      "Write a referral request SMS",
      "Draft a thank-you email for a referral",
      "How do I ask for reviews?",
      "Ideas for a neighborhood event",
    ],
  },
  {
    match: /\bprice|pricing|cost|financ|loan|lease|incentive|tax credit|rebate\b/i,
    intro: "When talking money, be clear and never promise figures you cannot back up:",
    ideas: [
      "Explain the options plainly: cash purchase, loan, lease or power purchase agreement.",
      "Mention that incentives depend on eligibility and point to the official program pages.",
      "Offer a personalized estimate instead of a generic number.",
      'SMS: "Hi {{firstName}}, happy to walk you through financing options for your home. Want a free estimate?"',
    ],
    suggestions: [
      "Write an email comparing financing options",
      "How do I explain incentives simply?",
      "Draft an SMS offering a free estimate",
      "What questions do buyers ask about leases?",
    ],
  },
];

const GENERAL: Topic = {
  match: /./,
  intro: "Here are a few ideas for your solar outreach:",
  ideas: [
    'Open with the homeowner, not the product: "Hi {{firstName}}, have your energy bills changed this year?"',
    "Lead with a free, no-obligation assessment as the first step.",
    "Time campaigns around seasons: summer bills, spring install slots, year-end planning.",
    "Keep SMS under 160 characters and always include opt-out wording on a first message.",
    "Share local installs and reviews to build trust before talking price.",
  ],
  suggestions: [
    "Write an introduction SMS for new leads",
    "Create a 4-step campaign sequence",
    "How do I handle price objections?",
    "Give me email subject lines that get opened",
  ],
};

export function composeChatAnswer(
  message: string,
  context: string,
  seed = 0,
  history: readonly ChatTurn[] = [],
): { response: string; suggestions: string[] } {
  const sequence = sequenceLength(message);
  if (sequence) return composeSequence(readBrief(message, context), sequence);
  const brief = briefFor(message, context, history);
  if (brief) return composeCopy(brief);
  const text = `${message} ${context}`;
  const topic = TOPICS.find((t) => t.match.test(message)) ?? TOPICS.find((t) => t.match.test(text)) ?? GENERAL;
  const start = topic.ordered ? 0 : hash(`${seed}|${message}`) % topic.ideas.length;
  const count = Math.min(topic.ideas.length, /\bideas?|tips?\b/i.test(message) ? (readCount(message) ?? 4) : 4);
  const ideas = [...topic.ideas.slice(start), ...topic.ideas.slice(0, start)].slice(0, count);
  const about = context.trim()
    ? `\n\nWith your context in mind (${context.trim().slice(0, 120)}), adapt the wording to your audience.`
    : "";
  return {
    response: `${topic.intro}\n\n${ideas.map((i) => `- ${i}`).join("\n")}${about}`,
    suggestions: topic.suggestions,
  };
}

// ---------------------------------------------------------------------------------------------------------------
// Copy requests ("5 subject lines", "three friendly texts for renters about battery storage", "make them shorter").
// The request is read into a Brief (what, how many, how long, tone, audience, topic); a follow-up is read against
// the brief of the conversation so far, so it transforms the previous answer instead of starting over.
// ---------------------------------------------------------------------------------------------------------------

export type Tone = "friendly" | "professional" | "urgent" | "casual";
export type AudienceKey = "homeowners" | "renters" | "commercial" | "seniors" | "pastQuotes" | "noShows";
export type TopicKey =
  | "quote"
  | "appointment"
  | "referral"
  | "financing"
  | "battery"
  | "netMetering"
  | "reengage"
  | "intro";

export type Brief = {
  kind: "sms" | "email" | "subject";
  count: number;
  /** True when the user asked for a number (the answer is then always a numbered list). */
  counted: boolean;
  /** SMS limit in characters (templates as written, opt-out wording included). */
  maxLength: number;
  tone: Tone;
  audience: AudienceKey;
  topic: TopicKey;
  /** 0 = full, 1 = shorter, 2 = shortest ("make them shorter" twice). */
  brevity: number;
  /** Moves the picks on for "another one" / "more options", so new items differ from the ones shown. */
  offset: number;
  /** Seeds the picks: the wording of the request that started the thread. */
  seed: string;
};

const NUMBER_WORDS: Record<string, number> = {
  one: 1,
  a: 1,
  an: 1,
  single: 1,
  two: 2,
  couple: 2,
  pair: 2,
  three: 3,
  few: 3,
  four: 4,
  five: 5,
  six: 6,
  seven: 7,
  eight: 8,
  nine: 9,
  ten: 10,
};

const COUNTED_NOUN = String.raw`(?:(?:short|quick|new|more|different|friendly|professional|casual|urgent|sms|email|e-mail|text|follow[- ]?up|reminder|referral|subject)\s+)*(?:subject lines?|subjects?|sms(?:es)?|texts?|text messages?|messages?|emails?|e-mails?|lines?|options?|versions?|variations?|drafts?|templates?|ideas?|tips?)`;

function readCount(text: string): number | null {
  const m = new RegExp(
    String.raw`\b(\d{1,2}|one|two|three|four|five|six|seven|eight|nine|ten|(?:a )?couple(?: of)?|(?:a )?few|(?:a )?pair of)\s+${COUNTED_NOUN}\b`,
    "i",
  ).exec(text);
  if (!m) return null;
  const raw = m[1].toLowerCase().replace(/^a /, "").replace(/ of$/, "");
  const n = /^\d+$/.test(raw) ? Number(raw) : NUMBER_WORDS[raw];
  return n ? Math.min(10, Math.max(1, n)) : null;
}

function readLength(text: string): number | null {
  const m =
    /\b(?:under|within|below|max(?:imum)?(?: of)?|at most|less than|no (?:more|longer) than|up to|<=?)\s*(\d{2,3})\s*(?:char(?:acter)?s?|chars?)\b/i.exec(
      text,
    ) ?? /\b(\d{2,3})[- ]?(?:char(?:acter)?s?|chars?)(?: max(?:imum)?| or (?:less|fewer)| limit)?\b/i.exec(text);
  return m ? Math.min(320, Math.max(40, Number(m[1]))) : null;
}

function readTone(text: string): Tone | null {
  if (/\b(?:urgent|urgency|time[- ]sensitive|asap|deadline|last chance)\b/i.test(text)) return "urgent";
  if (/\b(?:casual|relaxed|informal|laid[- ]back|chill)\b/i.test(text)) return "casual";
  if (/\b(?:professional|formal|business[- ]like|polished)\b/i.test(text)) return "professional";
  if (/\b(?:friendly|warm|upbeat|cheerful)\b/i.test(text)) return "friendly";
  return null;
}

function readAudience(text: string): AudienceKey | null {
  if (/\bno[- ]?shows?\b|\bmissed (?:the |their |an? |our )?(?:appointment|call|visit|consult)/i.test(text))
    return "noShows";
  if (/\bpast quotes?\b|\bold quotes?\b|\b(?:got|received|have|had) (?:a )?quotes?\b|\bquoted\b/i.test(text))
    return "pastQuotes";
  if (/\brenters?\b|\btenants?\b|\brent(?:ing)?\b/i.test(text)) return "renters";
  if (/\bcommercial\b|\bbusiness(?:es| owners?)?\b|\bsmall business\b|\bwarehouse\b/i.test(text)) return "commercial";
  if (/\bseniors?\b|\bretire(?:es|d)\b|\belderly\b|\bolder (?:homeowners|adults)\b/i.test(text)) return "seniors";
  if (/\bhomeowners?\b|\bhouse(?:holds)?\b/i.test(text)) return "homeowners";
  return null;
}

function readTopic(text: string): TopicKey | null {
  if (/\bbatter(?:y|ies)\b|\bstorage\b|\bbackup\b|\boutages?\b|\bpowerwall\b/i.test(text)) return "battery";
  if (
    /\bnet[- ]?meter(?:ing)?\b|\bNEM\b|\bsell(?:ing)? (?:power|energy|electricity) back\b|\bexport credits?\b/i.test(
      text,
    )
  )
    return "netMetering";
  if (
    /\bfinanc|\bloans?\b|\bleases?\b|\bmonthly payments?\b|\bafford|\bincentives?\b|\btax credit|\brebates?\b|\bpric(?:e|ing)\b|\bcosts?\b/i.test(
      text,
    )
  )
    return "financing";
  if (/\breferr|\bneighbou?rs?\b|\bfriends?\b|\bword of mouth\b/i.test(text)) return "referral";
  if (
    /\bappointments?\b|\breminders?\b|\bremind\b|\bsite (?:visit|survey)\b|\bconsultation\b|\bbooked\b|\bno[- ]?shows?\b/i.test(
      text,
    )
  )
    return "appointment";
  if (/\bquotes?\b|\bproposals?\b|\bestimates?\b/i.test(text)) return "quote";
  if (
    /\bre-?engag|\bwent (?:quiet|cold|dark)\b|\bghost|\bcold leads?\b|\bold leads?\b|\bhaven'?t heard\b|\bwin (?:them )?back\b|\bdormant\b|\bfollow[- ]?ups?\b|\bcheck(?:ing)?[- ]in\b/i.test(
      text,
    )
  )
    return "reengage";
  if (
    /\bintro(?:duction|duce|ductory)?\b|\bnew leads?\b|\bfirst (?:message|text|touch|email)\b|\bcold outreach\b/i.test(
      text,
    )
  )
    return "intro";
  return null;
}

function readKind(text: string): Brief["kind"] | null {
  if (/\bsubject(?: lines?)?s?\b|\bheadlines?\b/i.test(text)) return "subject";
  if (/\be-?mails?\b|\bnewsletters?\b/i.test(text)) return "email";
  if (/\bsms(?:es)?\b|\btexts?\b|\btext messages?\b|\btxts?\b/i.test(text)) return "sms";
  return null;
}

/** "make them shorter", "more casual", "another one", "as an email instead": what a follow-up changes. */
type Change = Partial<Omit<Brief, "seed" | "brevity" | "offset">> & { shorter?: number; another?: boolean };

const FOLLOW_UP =
  /\b(?:shorter|longer|more (?:concise|detail(?:ed)?|casual|friendly|formal|professional|urgent|options|like (?:this|these|that|those))|less (?:formal|salesy|pushy)|another(?: one| \w+)?|one more|different ones?|new ones?|again|instead|rewrite|reword|redo|tweak|trim|too long|make (?:it|them|these|those)\b|same (?:but|thing))\b/i;

function readChange(text: string): Change {
  const change: Change = {};
  if (/\bshorter|more concise|\btrim\b|too long|briefer|tighter/i.test(text)) change.shorter = 1;
  if (/\blonger|more detail/i.test(text)) change.shorter = -1;
  const tone = readTone(text) ?? (/\bless (?:formal|salesy|pushy)\b/i.test(text) ? "casual" : null);
  if (tone) change.tone = tone;
  const audience = readAudience(text);
  if (audience) change.audience = audience;
  const topic = readTopic(text);
  if (topic) change.topic = topic;
  const kind = readKind(text);
  if (kind) change.kind = kind;
  const length = readLength(text);
  if (length) change.maxLength = length;
  const count = readCount(text);
  if (
    /\banother\b|\bone more\b|\bdifferent ones?\b|\bnew ones?\b|\bmore options\b|\bmore like\b|\bagain\b/i.test(text)
  ) {
    change.another = true;
    const bare = /\banother\s+(\d{1,2}|two|three|four|five|six|seven|eight|nine|ten)\b/i.exec(text)?.[1].toLowerCase();
    const another = bare ? (/^\d+$/.test(bare) ? Math.min(10, Number(bare)) : NUMBER_WORDS[bare]) : null;
    change.count = count ?? another ?? (/\banother(?: one)?\b|\bone more\b/i.test(text) ? 1 : undefined);
    if (change.count) change.counted = true;
  } else if (count) {
    change.count = count;
    change.counted = true;
  }
  return change;
}

function applyChange(brief: Brief, c: Change): Brief {
  const next: Brief = { ...brief };
  if (c.kind) next.kind = c.kind;
  if (c.tone) next.tone = c.tone;
  if (c.audience) next.audience = c.audience;
  if (c.topic) next.topic = c.topic;
  if (c.maxLength) next.maxLength = c.maxLength;
  if (c.shorter) next.brevity = Math.min(2, Math.max(0, next.brevity + c.shorter));
  if (c.another) next.offset += brief.count;
  if (c.count) {
    next.count = Math.min(next.kind === "email" ? 5 : 10, c.count);
    next.counted = c.counted ?? next.counted;
  }
  return next;
}

/** Does this message ask for copy (texts, emails, subject lines), rather than advice? */
export function asksForCopy(text: string): boolean {
  if (readKind(text) === "subject") return true;
  const advice =
    /\b(?:how (?:do|can|should|many|often|long)|why|when should|what (?:should|is|are|do)|ideas? for|tips? (?:for|on)|advice|strateg(?:y|ies)|best (?:time|way|practices?))\b/i.test(
      text,
    );
  const copyVerb = /\b(?:write|draft|compose|create|give me|send me|need|make|generate|suggest|come up with)\b/i.test(
    text,
  );
  const copyNoun = readKind(text) !== null || /\b(?:messages?|copy|templates?|scripts?|wording)\b/i.test(text);
  if (advice && !copyVerb) return false;
  return copyNoun && (copyVerb || readCount(text) !== null || !advice);
}

/** The brief a standalone request sets (defaults for what it does not say). */
export function readBrief(message: string, context = ""): Brief {
  const text = `${message}\n${context}`;
  const kind = readKind(message) ?? readKind(context) ?? "sms";
  const count = readCount(message) ?? readCount(context);
  const audience = readAudience(message) ?? readAudience(context) ?? "homeowners";
  const topic =
    readTopic(message) ??
    readTopic(context) ??
    (audience === "noShows" ? "appointment" : audience === "pastQuotes" ? "quote" : "intro");
  return {
    kind,
    // Emails are long: at most 5 in one answer keeps it inside the chat's 8,000-character answer.
    count: Math.min(kind === "email" ? 5 : 10, count ?? (kind === "subject" ? 5 : 1)),
    counted: count !== null,
    maxLength: readLength(text) ?? 160,
    tone: readTone(message) ?? readTone(context) ?? "friendly",
    audience,
    topic,
    brevity: /\b(?:short|brief|quick|concise)\b/i.test(message) && kind !== "subject" ? 1 : 0,
    offset: 0,
    seed: message.trim().toLowerCase(),
  };
}

export function isFollowUp(message: string): boolean {
  if (!FOLLOW_UP.test(message)) return false;
  // "Write 3 texts about battery storage" starts over even if it says "new"; "another one about financing" does not.
  return !(
    readKind(message) &&
    readTopic(message) &&
    readCount(message) &&
    !/\b(?:another|instead|them|these|those|it)\b/i.test(message)
  );
}

/**
 * The brief behind a message in its conversation: a follow-up is applied to the brief of the request it follows
 * (found by walking back over earlier follow-ups), so "make them shorter" shortens what was shown.
 */
export function briefFor(message: string, context: string, history: readonly ChatTurn[]): Brief | null {
  const users = history.filter((t) => t.role === "user").map((t) => t.content);
  if (isFollowUp(message)) {
    const chain: string[] = [];
    for (let i = users.length - 1; i >= 0; i--) {
      if (isFollowUp(users[i])) chain.unshift(users[i]);
      else {
        if (!asksForCopy(users[i])) return null;
        let brief = readBrief(users[i], context);
        for (const m of [...chain, message]) brief = applyChange(brief, readChange(m));
        return brief;
      }
    }
    return null;
  }
  return asksForCopy(message) ? readBrief(message, context) : null;
}

type Audience = { label: string; place: string; roof: string; line: string };

const AUDIENCES: Record<AudienceKey, Audience> = {
  homeowners: {
    label: "homeowners",
    place: "your home",
    roof: "your roof",
    line: "Every home is different, so we start with your roof, your bills and your plans.",
  },
  renters: {
    label: "renters",
    place: "your place",
    roof: "the roof",
    line: "Renting does not rule solar out: community solar programs or a talk with your landlord can open the door.",
  },
  commercial: {
    label: "commercial property owners",
    place: "your business",
    roof: "your building's roof",
    line: "For a business, solar is a planning decision: we look at your load profile, your roof and your cash flow.",
  },
  seniors: {
    label: "seniors",
    place: "your home",
    roof: "your roof",
    line: "We explain everything plainly, in writing, and you are welcome to include family in any conversation.",
  },
  pastQuotes: {
    label: "contacts with a past quote",
    place: "your home",
    roof: "your roof",
    line: "Your earlier quote is a starting point: rates, equipment and programs may have changed since then.",
  },
  noShows: {
    label: "contacts who missed an appointment",
    place: "your home",
    roof: "your roof",
    line: "Plans change, and that is fine: a new time takes a minute to set up.",
  },
};

type TopicCopy = {
  label: string;
  /** SMS bodies: one or two sentences, written for the audience. */
  sms: (a: Audience) => string[];
  /** A follow-on sentence dropped first when the copy is made shorter. */
  extra: (a: Audience) => string[];
  cta: Record<Tone, string[]>;
  subjects: (a: Audience) => string[];
  email: (a: Audience) => string[];
  /** Marketing to a contact who may not be expecting us: the text carries opt-out wording. */
  optOut: boolean;
};

const TOPIC_COPY: Record<TopicKey, TopicCopy> = {
  quote: {
    label: "follow-up after a quote",
    sms: (a) => [
      `Just checking you had a chance to look over the solar quote for ${a.place}.`,
      `Any questions about the proposal we put together for ${a.place}?`,
      `Your solar quote is still open whenever you are ready to talk it through.`,
      `Happy to adjust the system size or payment option on your quote if anything felt off.`,
      `I can walk you through your quote line by line so nothing is a surprise.`,
      `Wanted to make sure your quote made sense and answered your questions.`,
    ],
    extra: () => [
      "Rates and programs change, so it is worth a second look.",
      "No pressure either way.",
      "It only takes a few minutes.",
    ],
    cta: {
      friendly: ["Want to go over it together?", "Happy to chat whenever suits you!"],
      professional: [
        "Would a 15-minute review call this week suit you?",
        "Please let me know a convenient time to review it.",
      ],
      casual: ["Quick call sometime?", "Want to chat about it?"],
      urgent: ["Can we review it today or tomorrow?", "Reply today so I can hold the current pricing review."],
    },
    subjects: (a) => [
      "Your solar quote: any questions?",
      "{{firstName}}, a second look at your solar proposal",
      `What your quote means for ${a.place}`,
      "Still thinking about solar?",
      "Three questions people ask after a solar quote",
      "Your proposal, explained in 2 minutes",
      "Can I adjust your solar quote?",
    ],
    email: (a) => [
      `I wanted to follow up on the solar quote we prepared for ${a.place}. A proposal has a lot of moving parts, and it is normal to have questions before deciding.`,
      "If anything in it was unclear, such as the system size, the equipment or the payment options, I am happy to walk you through it or adjust it.",
    ],
    optOut: false,
  },
  appointment: {
    label: "appointment reminder",
    sms: (a) =>
      a.label.startsWith("contacts who missed")
        ? [
            "Sorry we missed you for your solar consultation.",
            "We missed you at your solar appointment; no problem at all.",
            "Looks like the last appointment time did not work out.",
            "Life gets busy, so let's find a better time for your solar visit.",
            "Still interested in a look at what solar could do for your home?",
          ]
        : [
            "Reminder: your solar consultation is on {{appointmentDate}} at {{appointmentTime}}.",
            "Just a reminder of your solar appointment on {{appointmentDate}} at {{appointmentTime}}.",
            `Looking forward to seeing ${a.place} on {{appointmentDate}} at {{appointmentTime}}.`,
            "Your solar site visit is confirmed for {{appointmentDate}} at {{appointmentTime}}.",
            "See you on {{appointmentDate}} at {{appointmentTime}} for your free assessment.",
          ],
    extra: (a) =>
      a.label.startsWith("contacts who missed")
        ? ["It only takes 15 minutes.", "A quick call works too."]
        : ["It takes about 30 minutes.", "Have a recent power bill handy if you can."],
    cta: {
      friendly: ["Reply C to confirm or R to reschedule.", "Just reply if you need a new time!"],
      professional: ["Please reply to confirm or to reschedule.", "Kindly reply C to confirm or R to reschedule."],
      casual: ["Still good? Reply C, or R for a new time.", "Need a new time? Just text back."],
      urgent: [
        "Please confirm today so we can hold your slot.",
        "Reply now to keep your spot: C to confirm, R to reschedule.",
      ],
    },
    subjects: (a) =>
      a.label.startsWith("contacts who missed")
        ? [
            "Sorry we missed you, {{firstName}}",
            "Let's find a better time",
            "Your solar consultation: pick a new time",
            "Still interested in solar?",
            "A quick reschedule",
            "Two new times for your solar visit",
          ]
        : [
            "Your solar consultation on {{appointmentDate}}",
            "Reminder: solar assessment at {{appointmentTime}}",
            "See you soon, {{firstName}}",
            "What to expect at your solar visit",
            "Your appointment is confirmed",
            "Getting ready for your solar assessment",
          ],
    email: (a) =>
      a.label.startsWith("contacts who missed")
        ? [
            "We missed you at your solar consultation, and that is completely fine; schedules change.",
            `If you would still like to see what solar could do for ${a.place}, a new time takes a minute to set up.`,
          ]
        : [
            `This is a reminder of your solar consultation on {{appointmentDate}} at {{appointmentTime}}.`,
            `We will look at ${a.roof}, your recent energy use and your options. A recent power bill helps if you have one.`,
          ],
    optOut: false,
  },
  referral: {
    label: "referral ask",
    sms: (a) => [
      `Hope your solar is treating ${a.place} well!`,
      "Thanks again for going solar with us.",
      "Know someone who has been curious about solar?",
      "Our best customers come from people like you.",
      "If a neighbor has asked about your panels, we would love to help them too.",
    ],
    extra: () => [
      "We take good care of every referral.",
      "A name and number is all we need.",
      "We will only reach out if they are happy to hear from us.",
    ],
    cta: {
      friendly: ["Just reply with a name and number!", "Feel free to pass my number along!"],
      professional: [
        "Please reply with their name and number and we will take it from there.",
        "You are welcome to share my contact details.",
      ],
      casual: ["Send a name our way?", "Just text me their name."],
      urgent: [
        "Reply this week so we can fit them into this month's schedule.",
        "Send a name today while we have open slots.",
      ],
    },
    subjects: () => [
      "Know someone curious about solar?",
      "{{firstName}}, a quick favor?",
      "Thank you, and a small request",
      "Share the sunshine",
      "Your neighbors are asking about your panels",
      "Who else should hear about solar?",
    ],
    email: (a) => [
      `Thank you again for trusting us with ${a.place}. Many of our customers come from people like you who were happy with their installation.`,
      "If you know a friend, neighbor or relative who has been curious about solar, just reply with their name and we will reach out with care.",
    ],
    optOut: true,
  },
  financing: {
    label: "financing",
    sms: (a) => [
      `There are several ways to pay for solar on ${a.place}: cash, loan, lease or a power purchase agreement.`,
      "Solar can start with little or no money down, depending on the option and your credit.",
      "Curious what solar would cost each month? We can compare your options side by side.",
      "We can show you the payment options and incentives where available for your address.",
      "Financing solar is simpler than most people expect, and we explain every term plainly.",
    ],
    extra: () => [
      "Incentives depend on eligibility.",
      "No obligation.",
      "We show the full cost, not just the monthly figure.",
    ],
    cta: {
      friendly: ["Want a free side-by-side comparison?", "Happy to send you a few options!"],
      professional: [
        "May I prepare a personalized comparison for you?",
        "Would you like a written summary of your options?",
      ],
      casual: ["Want me to run the numbers?", "Should I send a few options?"],
      urgent: ["Reply today to get your options before rates change.", "Let's review your options this week."],
    },
    subjects: (a) => [
      "Ways to pay for solar, explained",
      "{{firstName}}, your solar payment options",
      `Cash, loan or lease: what fits ${a.place}?`,
      "Incentives where available, in plain words",
      "What would solar cost each month?",
      "A side-by-side look at solar financing",
    ],
    email: (a) => [
      `Most people ask first how they would pay for solar. For ${a.place}, the usual options are a cash purchase, a loan, a lease or a power purchase agreement, and each has trade-offs.`,
      "We also check incentives where available for your address and your eligibility, and show you the full cost before you decide anything.",
    ],
    optOut: true,
  },
  battery: {
    label: "battery storage",
    sms: (a) => [
      `A home battery can keep the essentials running at ${a.place} during an outage.`,
      "Battery storage lets you use more of your own solar power after sunset.",
      "Thinking about backup power? A battery pairs well with solar panels.",
      "Outages happen. A solar battery can keep lights, fridge and Wi-Fi on.",
      `Already have solar? A battery can be added to ${a.place} in most cases.`,
    ],
    extra: () => [
      "We size it to what you actually want to keep on.",
      "Every home's needs are different.",
      "We explain the trade-offs honestly.",
    ],
    cta: {
      friendly: ["Want to see if a battery fits?", "Happy to show you how it would work!"],
      professional: ["Would you like a storage assessment?", "May I send you a short overview of battery options?"],
      casual: ["Want the quick rundown?", "Curious? I can send details."],
      urgent: [
        "Storm season is coming: want a storage check this week?",
        "Book your storage assessment before the busy season.",
      ],
    },
    subjects: (a) => [
      "Keep the lights on during the next outage",
      "{{firstName}}, is a home battery right for you?",
      `Backup power for ${a.place}`,
      "Solar after sunset: how batteries help",
      "Battery storage, explained simply",
      "What a solar battery can (and cannot) do",
    ],
    email: (a) => [
      `A home battery stores solar power for later, so ${a.place} can keep essentials such as the fridge, lights and Wi-Fi running during an outage, and use more of its own energy after sunset.`,
      "Batteries are not right for everyone, so we look at what you would want to keep on and how often outages happen where you live before suggesting anything.",
    ],
    optOut: true,
  },
  netMetering: {
    label: "net metering",
    sms: (a) => [
      `With net metering, extra solar power from ${a.roof} can earn credits on your utility bill.`,
      "Net metering rules differ by utility, and we explain what yours offers.",
      "Wondering what happens to the solar power you do not use? Net metering may credit it.",
      "Your utility's net metering policy matters when sizing solar.",
      "Rules for selling power back to the grid are changing in many areas.",
    ],
    extra: () => [
      "We check your utility's current rules.",
      "It affects how big a system makes sense.",
      "We keep it simple.",
    ],
    cta: {
      friendly: ["Want me to check your utility's rules?", "Happy to explain how it works for you!"],
      professional: [
        "May I review your utility's current policy for you?",
        "Would a short explanation for your address help?",
      ],
      casual: ["Want the quick version?", "Should I look up your utility?"],
      urgent: [
        "Rules are changing: want a check this week?",
        "Reply today and I will check your utility's current rules.",
      ],
    },
    subjects: () => [
      "How net metering works for your home",
      "{{firstName}}, what happens to your extra solar power?",
      "Net metering in plain words",
      "Your utility's rules, explained",
      "Selling solar power back to the grid",
      "Why net metering matters when sizing solar",
    ],
    email: (a) => [
      `Net metering is how many utilities credit the extra power that solar on ${a.roof} sends to the grid. The credits can offset power you use at night, but the rules differ from one utility to another and change over time.`,
      "We check your utility's current policy before recommending a system size, so the design fits the rules that actually apply to you.",
    ],
    optOut: true,
  },
  reengage: {
    label: "re-engagement",
    sms: (a) => [
      `It has been a while since we talked about solar for ${a.place}.`,
      "Are you still thinking about solar? Things may have changed since we last spoke.",
      "Just checking in: is solar still on your list this year?",
      "I did not want to keep messaging without checking: should I close your file?",
      "A lot has changed in solar lately, including equipment and programs.",
    ],
    extra: () => [
      "No pressure at all.",
      "If now is not the right time, that is fine.",
      "Happy to answer any questions.",
    ],
    cta: {
      friendly: ["Want a fresh look?", "Happy to catch up whenever suits you!"],
      professional: ["Would an updated assessment be helpful?", "Please let me know if you would like an update."],
      casual: ["Still interested?", "Worth a quick chat?"],
      urgent: [
        "Reply this week and I will prioritize your update.",
        "Let me know today if you want a spot this month.",
      ],
    },
    subjects: () => [
      "Still thinking about solar, {{firstName}}?",
      "Should I close your file?",
      "What has changed in solar this year",
      "A quick check-in",
      "Is solar still on your list?",
      "A fresh look at solar for your home",
    ],
    email: (a) => [
      `It has been a while since we last talked about solar for ${a.place}, and I did not want to keep writing without checking in.`,
      "Equipment, utility rates and programs have changed since then, so an updated look may give a different picture. If now is not the right time, just tell me and I will stop.",
    ],
    optOut: true,
  },
  intro: {
    label: "introduction",
    sms: (a) => [
      `We help ${a.label} see whether solar fits their roof and budget.`,
      `Have you wondered what solar could do for ${a.place}?`,
      `We offer a free, no-obligation look at solar for ${a.place}.`,
      "Energy bills keep changing. Solar can make them more predictable.",
      `Curious whether ${a.roof} is a good fit for solar?`,
    ],
    extra: () => ["It starts with a free assessment.", "No obligation.", "We keep it simple and honest."],
    cta: {
      friendly: ["Want a free assessment?", "Happy to answer any questions!"],
      professional: ["Would you like a complimentary assessment?", "May I send you a short overview?"],
      casual: ["Want to take a look?", "Interested?"],
      urgent: ["Spots for this month are filling: want one?", "Reply today to book a free assessment this week."],
    },
    subjects: (a) => [
      "{{firstName}}, is your roof a good fit for solar?",
      "A quick question about your energy bills",
      `What ${a.label} are asking about solar`,
      "Your free roof assessment, in 2 minutes",
      `Solar for ${a.place}: where to start`,
      "Is solar worth a look this year?",
    ],
    email: (a) => [
      `I am reaching out because we help ${a.label} find out whether solar is a good fit for their roof, their energy use and their budget.`,
      "The first step is a free assessment with no obligation: we look at your roof and recent bills and show you plainly what solar could and could not do.",
    ],
    optOut: true,
  },
};

const OPENERS: Record<Tone, string[]> = {
  friendly: ["Hi {{firstName}}!", "Hi {{firstName}}, hope you're well!", "Hello {{firstName}}!"],
  professional: ["Hello {{firstName}},", "Good day {{firstName}},", "{{firstName}}, this is {{salesRep}}."],
  casual: ["Hey {{firstName}}!", "Hey {{firstName}},", "Hi {{firstName}}, {{salesRep}} here."],
  urgent: ["{{firstName}}, quick heads-up:", "{{firstName}}, time-sensitive:", "Hi {{firstName}}, before spots fill:"],
};

const EMAIL_GREETING: Record<Tone, string> = {
  friendly: "Hi {{firstName}},",
  professional: "Dear {{firstName}},",
  casual: "Hey {{firstName}},",
  urgent: "Hi {{firstName}},",
};
const EMAIL_CLOSE: Record<Tone, string> = {
  friendly: "Warm regards,",
  professional: "Kind regards,",
  casual: "Cheers,",
  urgent: "Thanks,",
};
const EMAIL_URGENT = "Schedules fill up quickly this time of year, so a reply this week keeps your options open.";
const SUBJECT_TONE: Record<Tone, (s: string) => string> = {
  friendly: (s) => s,
  professional: (s) => s.replace(/!$/, ""),
  casual: (s) => `Quick one: ${s.charAt(0).toLowerCase()}${s.slice(1)}`,
  urgent: (s) => `This week: ${s.charAt(0).toLowerCase()}${s.slice(1)}`,
};
export const SMS_OPT_OUT = "Reply STOP to opt out.";

const at = <T>(items: readonly T[], i: number): T => items[((i % items.length) + items.length) % items.length];

const SHORT_OPENER: Record<Tone, string> = {
  friendly: "Hi {{firstName}}!",
  professional: "Hello {{firstName}}.",
  casual: "Hey {{firstName}}!",
  urgent: "{{firstName}}, heads-up:",
};

type Part = { text: string; optional: boolean };

/** Sentence case after an opener that ends with a comma ("Hey {{firstName}}, just checking..."). */
function joinParts(parts: readonly Part[]): string {
  return parts
    .map((p, i) =>
      i > 0 && parts[i - 1].text.endsWith(",") && !/^(?:I\b|\{\{)/.test(p.text)
        ? p.text.charAt(0).toLowerCase() + p.text.slice(1)
        : p.text,
    )
    .join(" ");
}

/**
 * Fits a text into the limit: drops optional parts (first to last) until it fits, then `drop` more for a shorter
 * version of the same text, then cuts whole words.
 */
function fitText(parts: Part[], suffix: string, max: number, drop: number): string {
  const kept = [...parts];
  const full = (ps: Part[]) => [joinParts(ps), suffix].filter(Boolean).join(" ");
  const dropOne = () => {
    const i = kept.findIndex((p) => p.optional);
    if (i < 0) return false;
    kept.splice(i, 1);
    return true;
  };
  while (full(kept).length > max && dropOne());
  for (let n = 0; n < drop && dropOne(); n++);
  let text = joinParts(kept);
  const room = max - (suffix ? suffix.length + 1 : 0);
  if (text.length > room) {
    const words = text.split(" ");
    while (words.length > 1 && words.join(" ").length + 3 > room) words.pop();
    text = `${words.join(" ").replace(/[,;:]$/, "")}...`;
  }
  return [text, suffix].filter(Boolean).join(" ");
}

function smsItems(b: Brief): string[] {
  const a = AUDIENCES[b.audience];
  const t = TOPIC_COPY[b.topic];
  const bodies = t.sms(a);
  const start = hash(b.seed) % bodies.length;
  const out: string[] = [];
  for (let i = 0; out.length < b.count && i < b.count * 4; i++) {
    const n = b.offset + i;
    const parts = [
      {
        text: b.brevity > 0 ? SHORT_OPENER[b.tone] : at(OPENERS[b.tone], start + n + Math.floor(n / bodies.length)),
        optional: false,
      },
      { text: at(bodies, start + n), optional: false },
      { text: at(t.extra(a), start + n), optional: true },
      { text: at(t.cta[b.tone], start + n), optional: true },
    ];
    const text = fitText(parts, t.optOut ? SMS_OPT_OUT : "", b.maxLength, b.brevity);
    if (!out.includes(text)) out.push(text);
  }
  return out;
}

function subjectItems(b: Brief): string[] {
  const subjects = TOPIC_COPY[b.topic].subjects(AUDIENCES[b.audience]);
  const start = hash(b.seed) % subjects.length;
  const out: string[] = [];
  for (let i = 0; out.length < b.count && i < b.count * 4; i++) {
    let s = SUBJECT_TONE[b.tone](at(subjects, start + b.offset + i));
    if (i + b.offset >= subjects.length) s = `${s} (${Math.floor((i + b.offset) / subjects.length) + 1})`;
    if (b.brevity > 0)
      s = s.replace(/^(?:Quick one|This week): /i, "").replace(/,? in (?:2 minutes|plain words)$/i, "");
    if (!out.includes(s)) out.push(s);
  }
  return out;
}

function emailItems(b: Brief): string[] {
  const a = AUDIENCES[b.audience];
  const t = TOPIC_COPY[b.topic];
  const subjects = t.subjects(a);
  const start = hash(b.seed) % subjects.length;
  const [first, second] = t.email(a);
  return Array.from({ length: b.count }, (_, i) => {
    const n = start + b.offset + i;
    const paragraphs = [
      first,
      ...(b.brevity < 1 ? [i % 2 === 0 ? second : a.line] : []),
      ...(b.brevity < 1 && b.tone === "urgent" ? [EMAIL_URGENT] : []),
    ];
    if (b.brevity >= 2) paragraphs[0] = paragraphs[0].split(/(?<=[.!?])\s/)[0];
    return [
      `Subject: ${SUBJECT_TONE[b.tone](at(subjects, n))}`,
      "",
      EMAIL_GREETING[b.tone],
      "",
      ...paragraphs.flatMap((p) => [p, ""]),
      at(t.cta[b.tone], n),
      "",
      EMAIL_CLOSE[b.tone],
      "{{salesRep}}",
    ].join("\n");
  });
}

const KIND_LABEL = {
  sms: ["text", "texts"],
  email: ["email", "emails"],
  subject: ["subject line", "subject lines"],
} as const;

/** A copy answer for a brief: a numbered list when a number was asked for (or more than one item). */
export function composeCopy(b: Brief): { response: string; suggestions: string[] } {
  const items = b.kind === "sms" ? smsItems(b) : b.kind === "subject" ? subjectItems(b) : emailItems(b);
  const t = TOPIC_COPY[b.topic];
  const noun = KIND_LABEL[b.kind][items.length === 1 ? 0 : 1];
  const limit =
    b.kind === "sms"
      ? `, ${items.length === 1 ? "" : "each "}at most ${b.maxLength} characters${t.optOut ? " with the opt-out" : ""}`
      : "";
  const shorter = b.brevity > 0 ? "shorter " : "";
  const intro = `${items.length === 1 ? "A" : `${items.length}`} ${shorter}${b.tone} ${noun} for ${AUDIENCES[b.audience].label} (${t.label})${limit}:`;
  const list =
    b.counted || items.length > 1
      ? items.map((it, i) => `${i + 1}. ${it.replace(/\n/g, "\n   ")}`).join(b.kind === "email" ? "\n\n" : "\n")
      : items[0];
  const notes = [
    b.kind !== "subject" && "{{firstName}} and {{salesRep}} are filled in for each contact when the message is sent.",
    b.topic === "financing" &&
      'Incentives depend on eligibility: say "incentives where available" rather than promising a figure.',
    b.kind === "sms" &&
      !t.optOut &&
      'No opt-out line: these go to people already talking with you; add "Reply STOP to opt out." to a first text.',
  ].filter(Boolean);
  const suggestions = [
    b.brevity < 2 ? "Make them shorter" : "Make them longer",
    b.tone === "casual" ? "Make them more professional" : "Make them more casual",
    items.length === 1 ? "Give me another one" : "Give me different ones",
  ];
  return { response: [intro, "", list, ...(notes.length ? ["", ...notes] : [])].join("\n"), suggestions };
}

/** The copy for a campaign step whose description names a topic (the step composer's brief), or null. */
export function stepTopicCopy(
  brief: string,
  audienceText: string,
): { sms: string[]; email: string[]; subjects: string[] } | null {
  const topic = readTopic(brief);
  // Reminders need appointment fields a campaign step does not have.
  if (!topic || topic === "intro" || topic === "appointment") return null;
  const a = AUDIENCES[readAudience(`${audienceText} ${brief}`) ?? "homeowners"];
  const t = TOPIC_COPY[topic];
  return { sms: t.sms(a), email: t.email(a), subjects: t.subjects(a).filter((s) => !/\{\{appointment/.test(s)) };
}

/** "Create a 4-step follow-up campaign", "a drip sequence": how many steps, or null when it is not such a request. */
export function sequenceLength(message: string): number | null {
  if (!/\b(?:create|write|build|draft|give me|plan|make|set up)\b/i.test(message)) return null;
  const m = /\b(\d{1,2}|two|three|four|five|six|seven|eight)[- ](?:step|touch|message|part)\b/i.exec(message);
  if (m) return Math.min(8, Math.max(2, /^\d+$/.test(m[1]) ? Number(m[1]) : NUMBER_WORDS[m[1].toLowerCase()]));
  return /\b(?:sequence|drip|cadence)\b/i.test(message) ? 4 : null;
}

const SEQUENCE_DAYS = [0, 2, 5, 10, 20, 30, 45, 60];

/** A multi-step campaign: numbered steps, day offsets, texts and emails alternating, each one adding something new. */
export function composeSequence(b: Brief, steps: number): { response: string; suggestions: string[] } {
  const topic = b.topic === "intro" && /\bfollow[- ]?up|quiet|ghost|cold\b/i.test(b.seed) ? "reengage" : b.topic;
  const t = TOPIC_COPY[topic];
  const a = AUDIENCES[b.audience];
  const sms = smsItems({ ...b, kind: "sms", topic, count: steps, counted: true });
  const subjects = t.subjects(a);
  const start = hash(b.seed) % subjects.length;
  const lines = Array.from({ length: steps }, (_, i) => {
    const day = SEQUENCE_DAYS[i];
    if (i === steps - 1 && steps >= 3)
      return `${i + 1}. Day ${day}, text (a polite last message): "Hi {{firstName}}, I do not want to keep messaging if the timing is not right. Should I close your file?"`;
    if (i % 2 === 1)
      return `${i + 1}. Day ${day}, email. Subject: ${at(subjects, start + i)}\n   ${t.email(a)[Math.floor(i / 2) % 2]}`;
    const text = sms[i] ?? sms[0];
    return `${i + 1}. Day ${day}, text: "${i === 0 ? text : text.replace(/ Reply STOP to opt out\.$/, "")}"`;
  });
  const response = [
    `A ${steps}-step ${t.label} sequence for ${a.label} (${b.tone}); each step adds something new and stops as soon as the contact replies:`,
    "",
    ...lines,
    "",
    "Only the first text carries the opt-out wording (the others go to the same contact); texts stay within 160 characters.",
  ].join("\n");
  return {
    response,
    suggestions: [
      "Write the emails in full",
      "Make the texts more casual",
      "Write 3 break-up texts for leads who went quiet",
    ],
  };
}
