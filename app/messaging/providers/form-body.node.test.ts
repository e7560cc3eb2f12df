import { describe, expect, it } from "vitest";
import { formBody } from "./form-body";

/** Random strings over the characters that encode differently: ASCII punctuation, spaces, accents, emoji, surrogates. */
function randomText(seed: number): string {
  const pool = [
    ..." !\"#$%&'()*+,-./0123456789:;<=>?@AZaz[\\]^_`{|}~\t\n\r",
    "é",
    "ñ",
    "中",
    "😀",
    "\u00a0",
    "\ud800",
    "\udfff",
    "\u0000",
  ];
  let x = seed;
  let s = "";
  const length = seed % 40;
  for (let i = 0; i < length; i++) {
    x = (x * 1103515245 + 12345) % 2 ** 31;
    s += pool[x % pool.length];
  }
  return s;
}

describe("formBody", () => {
  it("writes what URLSearchParams writes, for the fields of a Twilio create and for any text", () => {
    const create: [string, string][] = [
      ["To", "+13035550100"],
      ["Body", "Hi Ana, 20% off (today only)! Reply STOP to opt out ~ thanks"],
      ["From", "+15005550006"],
      ["StatusCallback", "https://helio.example.com/webhooks/twilio/status?x=1&y=2"],
    ];
    expect(formBody(create)).toBe(new URLSearchParams(create).toString());
    for (let seed = 1; seed < 2000; seed++) {
      const fields: [string, string][] = [
        ["Body", randomText(seed)],
        [randomText(seed * 7 + 3), randomText(seed * 13 + 5)],
      ];
      expect(formBody(fields), JSON.stringify(fields)).toBe(new URLSearchParams(fields).toString());
    }
  });

  it("keeps repeated names in order (one MediaUrl per picture) and writes nothing for no fields", () => {
    const fields: [string, string][] = [
      ["MediaUrl", "https://a.example/1.jpg"],
      ["MediaUrl", "https://a.example/2.jpg"],
    ];
    expect(formBody(fields)).toBe("MediaUrl=https%3A%2F%2Fa.example%2F1.jpg&MediaUrl=https%3A%2F%2Fa.example%2F2.jpg");
    expect(formBody([])).toBe("");
  });
});
