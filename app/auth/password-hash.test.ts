import { describe, expect, it } from "vitest";
import { hashPassword, PBKDF2_ITERATIONS, verifyPassword } from "./password-hash.js";

describe("password hashing (PBKDF2-SHA256)", () => {
  it("pins the iteration count at the Workers production ceiling of 100,000", () => {
    // Production Workers reject PBKDF2 above 100,000 iterations; local workerd does not, so only this test catches it.
    expect(PBKDF2_ITERATIONS).toBe(100_000);
  });

  it("stores algorithm, iterations and a random 16-byte salt with the hash", async () => {
    const a = await hashPassword("s3cret-pass");
    const b = await hashPassword("s3cret-pass");
    const [alg, iter, salt, hash] = a.split("$");
    expect(alg).toBe("pbkdf2_sha256");
    expect(Number(iter)).toBe(100_000);
    expect(atob(salt)).toHaveLength(16);
    expect(atob(hash)).toHaveLength(32);
    expect(a).not.toBe(b); // different salts
  });

  it("verifies the right password and rejects a wrong or malformed one", async () => {
    const stored = await hashPassword("s3cret-pass", 1000);
    expect(await verifyPassword("s3cret-pass", stored)).toBe(true);
    expect(await verifyPassword("s3cret-pasS", stored)).toBe(false);
    expect(await verifyPassword("s3cret-pass", "plain")).toBe(false);
    expect(await verifyPassword("s3cret-pass", stored.replace("$1000$", "$200000$"))).toBe(false);
  });

  it("refuses to create a hash above the ceiling", async () => {
    await expect(hashPassword("x", 100_001)).rejects.toThrow(/100,000/);
  });
});
