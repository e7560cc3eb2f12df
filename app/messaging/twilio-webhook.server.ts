import { recordStatus } from "~/activity/system-status.server";
import type { Db } from "~/db/client.server";
import { publicBaseUrlOf, publicUrlProblem } from "./check-public-url.server";
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
  const signedUrl = publicBaseUrlOf(env) + url.pathname + url.search;
  const ok = await validateTwilioSignature(token, request.headers.get("X-Twilio-Signature"), signedUrl, params);
  return ok ? params : null;
}

/** Seconds Twilio is asked to wait before calling again while the public URL is wrong. */
const REFUSED_RETRY_AFTER = 300;

/**
 * The frame of both Twilio webhooks. With credentials present and PUBLIC_BASE_URL unusable, every signature check
 * would fail against the wrong URL and answer a silent 403 that Twilio does not retry: instead 503 with the reason,
 * logged and recorded for the Analytics health card, so Twilio retries the callback once the URL is set. Then the
 * signature (403), then `handle`.
 */
export async function handleTwilioWebhook(
  request: Request,
  env: Env,
  deps: { db: Db; now: Date },
  handle: (form: URLSearchParams) => Promise<Response>,
): Promise<Response> {
  const problem = publicUrlProblem(env);
  if (problem) {
    const path = new URL(request.url).pathname;
    console.error(`Twilio webhook ${path} refused with 503: ${problem}`);
    await recordStatus(deps.db, "refused:public_url", { what: "webhook", path, message: problem }, deps.now).catch(
      (e) => console.error("recording the refusal failed", e),
    );
    return new Response(problem, {
      status: 503,
      headers: { "Content-Type": "text/plain; charset=utf-8", "Retry-After": String(REFUSED_RETRY_AFTER) },
    });
  }
  const form = await readSignedTwilioForm(request, env);
  if (!form) return new Response("Invalid signature", { status: 403 });
  return handle(form);
}

export const twiml = (body = "<Response></Response>") =>
  new Response(`<?xml version="1.0" encoding="UTF-8"?>${body}`, {
    headers: { "Content-Type": "text/xml; charset=utf-8" },
  });
