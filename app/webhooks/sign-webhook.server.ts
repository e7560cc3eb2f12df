/**
 * The signature on every delivery (decision 036), Stripe/Svix style: `Helio-Signature: t=<unix seconds>,v1=<hex>`,
 * where hex = HMAC-SHA256(secret, "<t>.<body>"). The timestamp is inside the signed text, so a receiver that refuses
 * old timestamps (5 minutes is usual) also refuses a replayed capture.
 */
export async function signWebhook(secret: string, body: string, now: Date): Promise<string> {
  const t = Math.floor(now.getTime() / 1000);
  return `t=${t},v1=${await hmacHex(secret, `${t}.${body}`)}`;
}

export async function hmacHex(secret: string, text: string): Promise<string> {
  const enc = new TextEncoder();
  const key = await crypto.subtle.importKey("raw", enc.encode(secret), { name: "HMAC", hash: "SHA-256" }, false, [
    "sign",
  ]);
  const mac = new Uint8Array(await crypto.subtle.sign("HMAC", key, enc.encode(text)));
  return Array.from(mac, (b) => b.toString(16).padStart(2, "0")).join("");
}

/** A new signing secret: 32 random bytes, prefixed so a leaked one is recognisable in a scan. */
export function newWebhookSecret(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(32));
  return "whsec_" + Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}
