import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  classifyInbound,
  HELP_KEYWORDS,
  HELP_REPLY,
  OPT_IN_KEYWORDS,
  OPT_OUT_KEYWORDS,
  START_CONFIRMATION,
  STOP_CONFIRMATION,
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

  it.each(["STOP,", "*STOP*", "(stop)", "opt.out", "OPT_OUT", "opt - out", "¿stop", "st op", "-- Stop --"])("%j → stop (punctuation and spacing ignored)", (body) => {
    expect(classifyInbound(body)).toBe("stop");
  });

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
      fc.property(fc.constantFrom(...OPT_OUT_KEYWORDS), fc.array(fc.boolean(), { minLength: 12, maxLength: 12 }), ws, ws, inner, punct, quote, fc.boolean(),
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
    const word = fc.string({ unit: fc.constantFrom(..."abcdefghijklmnopqrstuvwxyz0123456789'"), minLength: 1, maxLength: 8 })
      .filter((w) => /[a-z0-9]/.test(w));
    fc.assert(
      fc.property(fc.constantFrom(...ALL_KEYWORDS), fc.array(word, { maxLength: 3 }), fc.array(word, { maxLength: 3 }), fc.constantFrom(" ", "  ", ", "),
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
  it("confirm opt-out and opt-in and explain HELP", () => {
    expect(STOP_CONFIRMATION).toMatch(/unsubscribed/i);
    expect(STOP_CONFIRMATION).toMatch(/START/);
    expect(START_CONFIRMATION).toMatch(/STOP/);
    expect(HELP_REPLY).toMatch(/STOP/);
    expect(HELP_REPLY).toMatch(/rates may apply/i);
  });
});
