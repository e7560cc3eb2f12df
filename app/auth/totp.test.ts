import { describe, expect, it } from "vitest";
import { base32Decode, base32Encode, hotp, matchTotp, otpauthUri, totpStep } from "./totp";

const ascii = (s: string) => new TextEncoder().encode(s) as Uint8Array<ArrayBuffer>;

describe("HOTP (RFC 4226 Appendix D)", () => {
  it("gives the ten published values for the test secret", async () => {
    const key = ascii("12345678901234567890");
    const expected = [
      "755224",
      "287082",
      "359152",
      "969429",
      "338314",
      "254676",
      "287922",
      "162583",
      "399871",
      "520489",
    ];
    expect(await Promise.all(expected.map((_, i) => hotp(key, i)))).toEqual(expected);
  });
});

describe("TOTP (RFC 6238 Appendix B, 8 digits, 30 s steps)", () => {
  const seeds = {
    "SHA-1": ascii("12345678901234567890"),
    "SHA-256": ascii("12345678901234567890123456789012"),
    "SHA-512": ascii("1234567890123456789012345678901234567890123456789012345678901234"),
  } as const;
  // [time (s), SHA-1, SHA-256, SHA-512]
  const table: [number, string, string, string][] = [
    [59, "94287082", "46119246", "90693936"],
    [1111111109, "07081804", "68084774", "25091201"],
    [1111111111, "14050471", "67062674", "99943326"],
    [1234567890, "89005924", "91819424", "93441116"],
    [2000000000, "69279037", "90698825", "38618901"],
    [20000000000, "65353130", "77737706", "47863826"],
  ];
  it.each(table)("T = %i s", async (time, sha1, sha256, sha512) => {
    const step = totpStep(time * 1000);
    expect(await hotp(seeds["SHA-1"], step, 8, "SHA-1")).toBe(sha1);
    expect(await hotp(seeds["SHA-256"], step, 8, "SHA-256")).toBe(sha256);
    expect(await hotp(seeds["SHA-512"], step, 8, "SHA-512")).toBe(sha512);
  });
});

describe("the app's TOTP: SHA-1, 6 digits, ±1 step", () => {
  const secret = base32Encode(ascii("12345678901234567890"));

  it("base32 round-trips and reads what people type", () => {
    expect(secret).toBe("GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ");
    expect(base32Decode("gezd gnbv-gy3t qojq gezd gnbv gy3t qojq")).toEqual(ascii("12345678901234567890"));
    expect(base32Decode("not base32!")).toBeNull();
  });

  it("accepts the current step and one either side, nothing further, and says which step matched", async () => {
    const now = new Date(1111111111 * 1000);
    const step = totpStep(now);
    const key = base32Decode(secret)!;
    const code = (s: number) => hotp(key, s);
    expect(await code(step)).toBe("050471"); // the RFC's 14050471, last 6 digits
    expect(await matchTotp(secret, await code(step), now)).toBe(step);
    expect(await matchTotp(secret, await code(step - 1), now)).toBe(step - 1);
    expect(await matchTotp(secret, await code(step + 1), now)).toBe(step + 1);
    expect(await matchTotp(secret, await code(step - 2), now)).toBeNull();
    expect(await matchTotp(secret, await code(step + 2), now)).toBeNull();
    expect(await matchTotp(secret, "12345", now)).toBeNull();
    expect(await matchTotp(secret, "abcdef", now)).toBeNull();
  });

  it("writes the otpauth:// URI authenticator apps read", () => {
    expect(otpauthUri("ABC", "ann@helio.test")).toBe(
      "otpauth://totp/Helio:ann%40helio.test?secret=ABC&issuer=Helio&algorithm=SHA1&digits=6&period=30",
    );
  });
});
