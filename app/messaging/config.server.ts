import { providerMode } from "./providers/registry.server";

/** Sending configuration from the environment, with safe defaults (US long code: 1 msg/s). */
export type MessagingConfig = {
  publicBaseUrl: string;
  smsRatePerSecond: number;
  smsDailyCap: number;
  /** How far ahead a consumer holds send slots (default PACING_WINDOW_MS); tests shorten it. */
  pacingWindowMs?: number;
  /** Postal address for the email footer; null = not configured (real email sends refuse to go without it). */
  companyAddress: string | null;
  /** Signs email unsubscribe links; null = none configured (real email refuses to send without one). */
  unsubscribeSecret: string | null;
};

const positive = (v: string | undefined, fallback: number) => {
  const n = Number(v);
  return v && Number.isFinite(n) && n > 0 ? n : fallback;
};

export function messagingConfig(env: Env): MessagingConfig {
  return {
    publicBaseUrl: (env.PUBLIC_BASE_URL || "http://127.0.0.1:8787").replace(/\/+$/, ""),
    smsRatePerSecond: positive(env.SMS_RATE_PER_SECOND, 1),
    smsDailyCap: Math.floor(positive(env.SMS_DAILY_CAP, 2000)),
    companyAddress: env.COMPANY_ADDRESS || null,
    // Its own secret so rotating SESSION_SECRET does not break links in emails already sent. Never a fixed
    // string (anyone could forge links): a real provider needs UNSUBSCRIBE_SECRET, the local outbox may borrow
    // SESSION_SECRET.
    unsubscribeSecret: env.UNSUBSCRIBE_SECRET || (providerMode(env).email === "outbox" ? env.SESSION_SECRET || null : null),
  };
}
