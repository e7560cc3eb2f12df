import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  classifyInbound,
  isPlainWordsOptOut,
  keywordReply,
  HELP_KEYWORDS,
  OPT_IN_KEYWORDS,
  OPT_OUT_KEYWORDS,
} from "./keywords.js";

const ALL_KEYWORDS = [...OPT_OUT_KEYWORDS, ...OPT_IN_KEYWORDS, ...HELP_KEYWORDS];

describe("classifyInbound", () => {
  it.each([
    ["STOP", "stop"],
    ["stop", "stop"],
    ["  Stop  ", "stop"],
    ["STOP.", "stop"],
    ["stop!!", "stop"],
    ["Stop?", "stop"],
    ['"STOP"', "stop"],
    ["“stop.”", "stop"],
    ["'stop'!", "stop"],
    ["\tstop\n", "stop"],
    ["ＳＴＯＰ", "stop"],
    ["stop\u200B", "stop"],
    ["stopall", "stop"],
    ["Unsubscribe", "stop"],
    ["cancel", "stop"],
    ["END", "stop"],
    ["quit.", "stop"],
    ["revoke", "stop"],
    ["optout", "stop"],
    ["opt out", "stop"],
    ["opt   out", "stop"],
    ["OPT\tOUT!", "stop"],
    ["opt-out", "stop"],
    ["START", "start"],
    ["unstop", "start"],
    ["Yes!", "start"],
    ["help", "help"],
    ["Info?", "help"],
  ])("%j → %s", (body, expected) => {
    expect(classifyInbound(body)).toBe(expected);
  });

  it.each([
    "",
    "   ",
    "don't stop",
    "STOP please",
    "please stop",
    "stop it",
    "stops",
    "stopp",
    "non-stop",
    "the end",
    "yes please",
    "yeah",
    "help me",
    "I need info",
    "Stop. Stop.",
    "Hi, when can you come by?",
  ])("%j → null", (body) => {
    expect(classifyInbound(body)).toBeNull();
  });

  it.each(["STOP,", "*STOP*", "(stop)", "opt.out", "OPT_OUT", "opt - out", "¿stop", "st op", "-- Stop --"])(
    "%j → stop (punctuation and spacing ignored)",
    (body) => {
      expect(classifyInbound(body)).toBe("stop");
    },
  );

  it("lets Twilio's OptOutType win when present", () => {
    expect(classifyInbound("please remove me", "STOP")).toBe("stop");
    expect(classifyInbound("stop", "start")).toBe("start");
    expect(classifyInbound("whatever", " help ")).toBe("help");
    expect(classifyInbound("stop", null)).toBe("stop");
    expect(classifyInbound("stop", "")).toBe("stop");
    expect(classifyInbound("hello", "SOMETHING_NEW")).toBeNull();
  });

  it("classifies opt-out keywords with random case, whitespace, punctuation and quotes as stop (property)", () => {
    const ws = fc.string({ unit: fc.constantFrom(" ", "\t", "\n", "\r"), maxLength: 4 });
    const inner = fc.string({ unit: fc.constantFrom(" ", "\t"), minLength: 1, maxLength: 4 });
    const punct = fc.string({ unit: fc.constantFrom(".", "!", "?"), maxLength: 3 });
    const quote = fc.constantFrom(["", ""], ['"', '"'], ["'", "'"], ["“", "”"], ["‘", "’"]);
    fc.assert(
      fc.property(
        fc.constantFrom(...OPT_OUT_KEYWORDS),
        fc.array(fc.boolean(), { minLength: 12, maxLength: 12 }),
        ws,
        ws,
        inner,
        punct,
        quote,
        fc.boolean(),
        (kw, upper, lead, trail, space, p, [qo, qc], punctInside) => {
          const cased = [...kw].map((c, i) => (upper[i] ? c.toUpperCase() : c.toLowerCase())).join("");
          const spaced = cased.replace(" ", space);
          const core = punctInside ? `${qo}${spaced}${p}${qc}` : `${qo}${spaced}${qc}${p}`;
          expect(classifyInbound(`${lead}${core}${trail}`)).toBe("stop");
        },
      ),
    );
  });

  it("does not classify sentences that merely contain a keyword (property)", () => {
    const word = fc
      .string({ unit: fc.constantFrom(..."abcdefghijklmnopqrstuvwxyz0123456789'"), minLength: 1, maxLength: 8 })
      .filter((w) => /[a-z0-9]/.test(w));
    fc.assert(
      fc.property(
        fc.constantFrom(...ALL_KEYWORDS),
        fc.array(word, { maxLength: 3 }),
        fc.array(word, { maxLength: 3 }),
        fc.constantFrom(" ", "  ", ", "),
        (kw, before, after, sep) => {
          fc.pre(before.length + after.length > 0);
          const body = [...before, kw.toLowerCase(), ...after].join(sep);
          expect(classifyInbound(body)).toBeNull();
        },
      ),
    );
  });
});

describe("reply texts", () => {
  it("confirm opt-out and opt-in and explain HELP, in the organisation's name (CTIA: the brand the homeowner knows)", () => {
    const brand = { company: "Sunny Solar Co", companyPhone: "(415) 555-0199" };
    expect(keywordReply("stop", brand)).toBe(
      "You have been unsubscribed and will receive no more messages from Sunny Solar Co. Reply START to resubscribe.",
    );
    expect(keywordReply("start", brand)).toMatch(/resubscribed to messages from Sunny Solar Co\. .*STOP/);
    expect(keywordReply("help", brand)).toBe(
      "Sunny Solar Co: solar sales updates. Help: (415) 555-0199. Reply STOP to opt out, START to resubscribe. Msg & data rates may apply.",
    );
    for (const k of ["stop", "start", "help"] as const) expect(keywordReply(k, brand)).not.toMatch(/Helio/);
    // Nothing set yet: whole sentences, still no platform name.
    expect(keywordReply("stop", {})).toBe(
      "You have been unsubscribed and will receive no more messages from us. Reply START to resubscribe.",
    );
    expect(keywordReply("help", {})).toMatch(/^Solar sales updates\. Reply STOP/);
  });
});

describe("plain-words opt-outs (issue 24: the FCC counts any reasonable way of saying it)", () => {
  it("reads requests to stop in plain words", () => {
    for (const body of [
      "Stop texting me",
      "remove me from your list please",
      "Please take me off your list!",
      "Unsubscribe me",
      "Do not text me again",
      "don’t contact me",
      "No more texts please",
      "Lose my number",
      "Stop messaging me, I rent",
      "leave me alone",
    ])
      expect(isPlainWordsOptOut(body), body).toBe(true);
  });
  it("leaves ordinary replies alone, negated requests included", () => {
    for (const body of [
      "Can you stop by Tuesday?",
      "Don't stop texting me, I'm interested!",
      "Yes please text me the quote",
      "What does it cost to remove the old panels?",
      "I will not unsubscribe, tell me more",
      "Stop",
    ])
      expect(isPlainWordsOptOut(body), body).toBe(false);
  });
});
