// Picks each channel's provider from configuration: the real one when fully configured, else the local outbox.
import type { Db } from "~/db/client.server";
import { createOutboxEmail, createOutboxSms } from "./outbox.server";
import type { EmailProvider, ProviderName, SmsProvider } from "./provider";
import { createSendGridEmail, type SendGridConfig } from "./sendgrid.server";
import { createTwilioSms, type TwilioConfig } from "./twilio.server";
import { systemClock, type Clock } from "~/lib/clock";

/** The settings read here. Env declares them as strings, but wrangler leaves an absent secret undefined. */
export type ProviderEnv = Partial<
  Pick<
    Env,
    | "TWILIO_ACCOUNT_SID"
    | "TWILIO_AUTH_TOKEN"
    | "TWILIO_FROM_NUMBER"
    | "TWILIO_MESSAGING_SERVICE_SID"
    | "TWILIO_API_BASE"
    | "SENDGRID_API_KEY"
    | "SENDGRID_API_BASE"
    | "EMAIL_FROM"
  >
>;

/** Trimmed value, or undefined when missing or blank. */
const setting = (v: unknown): string | undefined => (typeof v === "string" && v.trim() ? v.trim() : undefined);

/** Twilio config when the account SID, auth token and a sender (number or messaging service) are all set. */
export function twilioConfigFrom(env: ProviderEnv): TwilioConfig | null {
  const accountSid = setting(env.TWILIO_ACCOUNT_SID);
  const authToken = setting(env.TWILIO_AUTH_TOKEN);
  const from = setting(env.TWILIO_FROM_NUMBER);
  const messagingServiceSid = setting(env.TWILIO_MESSAGING_SERVICE_SID);
  if (!accountSid || !authToken || (!from && !messagingServiceSid)) return null;
  return { accountSid, authToken, from, messagingServiceSid, apiBase: setting(env.TWILIO_API_BASE) };
}

/** EMAIL_FROM as "news@example.com" or "Helio <news@example.com>". */
export function parseEmailFrom(value: string): { email: string; name?: string } {
  const m = value.match(/^\s*"?([^"<]*?)"?\s*<([^<>\s]+)>\s*$/);
  if (!m) return { email: value.trim() };
  return m[1] ? { email: m[2], name: m[1] } : { email: m[2] };
}

/** SendGrid config when the API key and EMAIL_FROM are set. */
export function sendGridConfigFrom(env: ProviderEnv): SendGridConfig | null {
  const apiKey = setting(env.SENDGRID_API_KEY);
  const emailFrom = setting(env.EMAIL_FROM);
  if (!apiKey || !emailFrom) return null;
  const { email, name } = parseEmailFrom(emailFrom);
  return { apiKey, from: email, fromName: name, apiBase: setting(env.SENDGRID_API_BASE) };
}

/** `clock`: the local outbox stamps its rows with it (the real providers keep their own time). */
export function smsProviderFor(env: ProviderEnv, db: Db, clock: Clock = systemClock): SmsProvider {
  const twilio = twilioConfigFrom(env);
  if (twilio) return createTwilioSms(twilio);
  // Keep a configured number as the outbox sender so previews show it.
  return createOutboxSms(db, { sender: setting(env.TWILIO_FROM_NUMBER), clock });
}

export function emailProviderFor(env: ProviderEnv, db: Db, clock: Clock = systemClock): EmailProvider {
  const sendgrid = sendGridConfigFrom(env);
  if (sendgrid) return createSendGridEmail(sendgrid);
  const emailFrom = setting(env.EMAIL_FROM);
  return createOutboxEmail(db, { sender: emailFrom ? parseEmailFrom(emailFrom).email : undefined, clock });
}

/** Which provider each channel uses, for the UI's "local outbox" banner. */
export function providerMode(env: ProviderEnv): { sms: ProviderName; email: ProviderName } {
  return { sms: twilioConfigFrom(env) ? "twilio" : "outbox", email: sendGridConfigFrom(env) ? "sendgrid" : "outbox" };
}
