// Twilio webhook signatures (X-Twilio-Signature), WebCrypto only so it runs in Workers.
// Algorithm (https://www.twilio.com/docs/usage/webhooks/webhooks-security): take the full webhook URL,
// append every POST parameter as name+value with names sorted ascending, HMAC-SHA1 with the auth token,
// base64. For a repeated name we follow Twilio's own SDKs (twilio-node toFormUrlEncodedParam,
// twilio-python RequestValidator.compute_signature): its distinct values, sorted, each as name+value.

export type TwilioParams = Record<string, string> | URLSearchParams;

function groupParams(params: TwilioParams): Map<string, string[]> {
  const grouped = new Map<string, string[]>();
  const entries: Iterable<[string, string]> =
    params instanceof URLSearchParams ? params.entries() : Object.entries(params);
  for (const [name, value] of entries) {
    const list = grouped.get(name);
    if (list) list.push(value);
    else grouped.set(name, [value]);
  }
  return grouped;
}

// Code-unit order, like JavaScript's default sort (what twilio-node uses); names are ASCII in practice.
const byCodeUnit = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

export function twilioSigningString(url: string, params: TwilioParams): string {
  const grouped = groupParams(params);
  let data = url;
  for (const name of [...grouped.keys()].sort(byCodeUnit)) {
    for (const value of [...new Set(grouped.get(name))].sort(byCodeUnit)) data += name + value;
  }
  return data;
}

function toBase64(bytes: ArrayBuffer): string {
  let bin = "";
  for (const b of new Uint8Array(bytes)) bin += String.fromCharCode(b);
  return btoa(bin);
}

export async function computeTwilioSignature(authToken: string, url: string, params: TwilioParams): Promise<string> {
  const enc = new TextEncoder();
  const key = await crypto.subtle.importKey("raw", enc.encode(authToken), { name: "HMAC", hash: "SHA-1" }, false, [
    "sign",
  ]);
  const mac = await crypto.subtle.sign("HMAC", key, enc.encode(twilioSigningString(url, params)));
  return toBase64(mac);
}

/** Constant-time for equal lengths; a length mismatch leaks nothing, since a real signature is always 28 chars. */
function timingSafeEqualStrings(a: string, b: string): boolean {
  const enc = new TextEncoder();
  const x = enc.encode(a);
  const y = enc.encode(b);
  if (x.length !== y.length) return false;
  let diff = 0;
  for (let i = 0; i < x.length; i++) diff |= x[i] ^ y[i];
  return diff === 0;
}

/**
 * Twilio's SDKs accept a signature computed over the URL with or without the scheme's default port (443/80),
 * because Twilio's side is inconsistent about it; we do the same. Nothing else about the URL is normalised.
 */
function urlCandidates(url: string): string[] {
  const out = [url];
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return out;
  }
  const defaultPort = u.protocol === "https:" ? "443" : u.protocol === "http:" ? "80" : null;
  if (!defaultPort) return out;
  const authority = `${u.protocol}//${u.username ? u.username + (u.password ? ":" + u.password : "") + "@" : ""}`;
  const rest = u.pathname + u.search + u.hash;
  // URL drops a default port, so u.port is "" for both "host" and "host:443"; a non-default port is kept as is.
  if (u.port === "") out.push(`${authority}${u.hostname}${rest}`, `${authority}${u.hostname}:${defaultPort}${rest}`);
  return [...new Set(out)];
}

export async function validateTwilioSignature(
  authToken: string,
  signatureHeader: string | null,
  url: string,
  params: TwilioParams,
): Promise<boolean> {
  if (!signatureHeader || !authToken) return false;
  let ok = false;
  // Check every candidate (no early exit) so timing does not reveal which URL form matched.
  for (const candidate of urlCandidates(url)) {
    const expected = await computeTwilioSignature(authToken, candidate, params);
    ok = timingSafeEqualStrings(expected, signatureHeader.trim()) || ok;
  }
  return ok;
}
