import { validateTwilioSignature } from "./twilio-signature";

/**
 * Reads a Twilio webhook: form parameters plus the signature check against the configured public URL
 * (Twilio signs the URL it called, which behind proxies is not request.url). Returns null when the
 * signature is missing, wrong, or Twilio is not configured.
 */
export async function readSignedTwilioForm(request: Request, env: Env): Promise<URLSearchParams | null> {
  const token = env.TWILIO_AUTH_TOKEN;
  if (!token) return null;
  const params = new URLSearchParams(await request.text());
  const url = new URL(request.url);
  const base = (env.PUBLIC_BASE_URL || url.origin).replace(/\/+$/, "");
  const signedUrl = base + url.pathname + url.search;
  const ok = await validateTwilioSignature(token, request.headers.get("X-Twilio-Signature"), signedUrl, params);
  return ok ? params : null;
}

export const twiml = (body = "<Response></Response>") =>
  new Response(`<?xml version="1.0" encoding="UTF-8"?>${body}`, { headers: { "Content-Type": "text/xml; charset=utf-8" } });
