import { publicBaseUrlOf, publicUrlProblem } from "./check-public-url.server";
import { providerMode } from "./providers/registry.server";

/** Sending configuration from the environment, with safe defaults (US long code: 1 msg/s). */
export type MessagingConfig = {
  /** PUBLIC_BASE_URL without trailing slashes; "" when unset (outbox links are then relative). */
  publicBaseUrl: string;
  /** Set when real credentials are present but PUBLIC_BASE_URL cannot be this app's public https address: the consumer holds sends (check-public-url). */
  publicUrlProblem: string | null;
  smsRatePerSecond: number;
  smsDailyCap: number;
  /** How far ahead a consumer holds send slots (default PACING_WINDOW_MS); tests shorten it. */
  pacingWindowMs?: number;
  /** Postal address for the email footer; null = not configured (real email sends refuse to go without it). */
  companyAddress: string | null;
  /** Signs email unsubscribe links; null = none configured (real email refuses to send without one). */
  unsubscribeSecret: string | null;
  /** Signs tracked links' codes (decision 068); null = none configured, and texts go with their links as written. */
  linkSecret: string | null;
};

const positive = (v: string | undefined, fallback: number) => {
  const n = Number(v);
  return v && Number.isFinite(n) && n > 0 ? n : fallback;
};

export function messagingConfig(env: Env): MessagingConfig {
  return {
    publicBaseUrl: publicBaseUrlOf(env),
    publicUrlProblem: publicUrlProblem(env),
    smsRatePerSecond: positive(env.SMS_RATE_PER_SECOND, 1),
    smsDailyCap: Math.floor(positive(env.SMS_DAILY_CAP, 2000)),
    companyAddress: env.COMPANY_ADDRESS || null,
    // Its own secret so rotating SESSION_SECRET does not break links in emails already sent. Never a fixed
    // string (anyone could forge links): a real provider needs UNSUBSCRIBE_SECRET, the local outbox may borrow
    // SESSION_SECRET.
    unsubscribeSecret:
      env.UNSUBSCRIBE_SECRET || (providerMode(env).email === "outbox" ? env.SESSION_SECRET || null : null),
    // The unsubscribe secret when there is one (it outlives a SESSION_SECRET rotation, so sent links keep working).
    linkSecret: env.UNSUBSCRIBE_SECRET || env.SESSION_SECRET || null,
  };
}
