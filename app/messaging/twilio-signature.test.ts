import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { computeTwilioSignature, twilioSigningString, validateTwilioSignature } from "./twilio-signature.js";

const TOKEN = "12345";
const URL_ = "https://mycompany.com/myapp.php?foo=1&bar=2";

// Twilio's webhook-security docs example. The documented signature GvWf1cFY/Q7PnoempGyD5oXAezc= belongs to
// Caller/From +14158675310 (current docs, and the value twilio-node/twilio-python produce).
const DOC_PARAMS = {
  CallSid: "CA1234567890ABCDE",
  Caller: "+14158675310",
  Digits: "1234",
  From: "+14158675310",
  To: "+18005551212",
};
const DOC_SIGNATURE = "GvWf1cFY/Q7PnoempGyD5oXAezc=";

// The older docs used +12349013030; that variant signs to 0/KCTR6DLpKmkAf8muzZqo1nDgQ=
// (cross-checked with Node's crypto.createHmac outside this repo).
const OLD_DOC_PARAMS = { ...DOC_PARAMS, Caller: "+12349013030", From: "+12349013030" };
const OLD_DOC_SIGNATURE = "0/KCTR6DLpKmkAf8muzZqo1nDgQ=";

describe("computeTwilioSignature", () => {
  it("reproduces Twilio's documented example", async () => {
    expect(await computeTwilioSignature(TOKEN, URL_, DOC_PARAMS)).toBe(DOC_SIGNATURE);
    expect(await computeTwilioSignature(TOKEN, URL_, OLD_DOC_PARAMS)).toBe(OLD_DOC_SIGNATURE);
  });

  it("does not depend on parameter order or container type", async () => {
    const reversed = Object.fromEntries(Object.entries(DOC_PARAMS).reverse());
    expect(await computeTwilioSignature(TOKEN, URL_, reversed)).toBe(DOC_SIGNATURE);
    const form = new URLSearchParams(Object.entries(reversed));
    expect(await computeTwilioSignature(TOKEN, URL_, form)).toBe(DOC_SIGNATURE);
  });

  it("builds the signing string as url + sorted name+value pairs", () => {
    expect(twilioSigningString("https://x.test/h", { b: "2", a: "1", B: "3" })).toBe("https://x.test/hB3a1b2");
    expect(twilioSigningString("https://x.test/h", {})).toBe("https://x.test/h");
  });

  it("signs repeated names like Twilio's SDKs: distinct values, sorted", () => {
    const form = new URLSearchParams("Media=z&Body=hi&Media=a&Media=z");
    expect(twilioSigningString("u", form)).toBe("uBodyhiMediaaMediaz");
  });
});

describe("validateTwilioSignature", () => {
  it("accepts the documented signature", async () => {
    expect(await validateTwilioSignature(TOKEN, DOC_SIGNATURE, URL_, DOC_PARAMS)).toBe(true);
    expect(await validateTwilioSignature(TOKEN, DOC_SIGNATURE, URL_, new URLSearchParams(DOC_PARAMS))).toBe(true);
  });

  it("rejects a tampered parameter, an added or removed parameter", async () => {
    expect(await validateTwilioSignature(TOKEN, DOC_SIGNATURE, URL_, { ...DOC_PARAMS, Digits: "9999" })).toBe(false);
    expect(await validateTwilioSignature(TOKEN, DOC_SIGNATURE, URL_, { ...DOC_PARAMS, Body: "STOP" })).toBe(false);
    const { Digits: _removed, ...fewer } = DOC_PARAMS;
    expect(await validateTwilioSignature(TOKEN, DOC_SIGNATURE, URL_, fewer)).toBe(false);
  });

  it("rejects a wrong URL", async () => {
    for (const url of [
      "http://mycompany.com/myapp.php?foo=1&bar=2",
      "https://mycompany.com/myapp.php?foo=1&bar=3",
      "https://mycompany.com/myapp.php?bar=2&foo=1",
      "https://mycompany.com/myapp.php",
      "https://evil.com/myapp.php?foo=1&bar=2",
      "https://mycompany.com:8443/myapp.php?foo=1&bar=2",
    ]) {
      expect(await validateTwilioSignature(TOKEN, DOC_SIGNATURE, url, DOC_PARAMS), url).toBe(false);
    }
  });

  it("rejects a missing, empty, truncated or wrong-token signature", async () => {
    expect(await validateTwilioSignature(TOKEN, null, URL_, DOC_PARAMS)).toBe(false);
    expect(await validateTwilioSignature(TOKEN, "", URL_, DOC_PARAMS)).toBe(false);
    expect(await validateTwilioSignature(TOKEN, DOC_SIGNATURE.slice(0, -1), URL_, DOC_PARAMS)).toBe(false);
    expect(await validateTwilioSignature("54321", DOC_SIGNATURE, URL_, DOC_PARAMS)).toBe(false);
    expect(await validateTwilioSignature("", DOC_SIGNATURE, URL_, DOC_PARAMS)).toBe(false);
  });

  it("accepts the URL with or without the default port, like Twilio's SDKs", async () => {
    const withPort = "https://mycompany.com:443/myapp.php?foo=1&bar=2";
    const signedWithPort = await computeTwilioSignature(TOKEN, withPort, DOC_PARAMS);
    expect(signedWithPort).not.toBe(DOC_SIGNATURE);
    expect(await validateTwilioSignature(TOKEN, signedWithPort, URL_, DOC_PARAMS)).toBe(true);
    expect(await validateTwilioSignature(TOKEN, DOC_SIGNATURE, withPort, DOC_PARAMS)).toBe(true);
  });

  it("round-trips and detects any single-value change (property)", async () => {
    const key = fc.string({ unit: fc.constantFrom(..."ABCabcSid_0"), minLength: 1, maxLength: 6 });
    await fc.assert(
      fc.asyncProperty(
        fc.dictionary(key, fc.string(), { minKeys: 1, maxKeys: 8 }),
        fc.string({ minLength: 1 }),
        fc.nat(),
        fc.string({ minLength: 1 }),
        async (params, token, pick, extra) => {
          const sig = await computeTwilioSignature(token, URL_, params);
          expect(await validateTwilioSignature(token, sig, URL_, params)).toBe(true);
          const names = Object.keys(params);
          const name = names[pick % names.length];
          const changed = { ...params, [name]: params[name] + extra };
          expect(await validateTwilioSignature(token, sig, URL_, changed)).toBe(false);
        },
      ),
      { numRuns: 50 },
    );
  });
});
