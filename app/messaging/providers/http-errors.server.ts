// Shared by the HTTP providers: Retry-After parsing and fetch failures → ProviderError.
import { ProviderError } from "./provider";

/** Retry-After as delta-seconds or an HTTP-date (RFC 9110 §10.2.3) → whole seconds ≥ 0, or null. */
export function parseRetryAfter(value: string | null, nowMs = Date.now()): number | null {
  if (!value) return null;
  const v = value.trim();
  if (/^\d+$/.test(v)) return Number(v);
  if (!/^[A-Za-z]{3}/.test(v)) return null; // HTTP-dates start with the day name; Date.parse accepts too much
  const at = Date.parse(v);
  if (Number.isNaN(at)) return null;
  return Math.max(0, Math.ceil((at - nowMs) / 1000));
}

/**
 * Runs one fetch; a thrown fetch (DNS, refused, reset, our timeout) becomes a retryable ProviderError.
 * The request may or may not have reached the provider — the pipeline's retry accepts that (SPEC: 429/5xx/network
 * are transient); reconciliation only covers crashes.
 */
export async function fetchOrRetry(
  doFetch: typeof fetch,
  label: string,
  url: string,
  init: RequestInit,
  timeoutMs: number,
): Promise<Response> {
  try {
    return await doFetch(url, { ...init, signal: AbortSignal.timeout(timeoutMs) });
  } catch (err) {
    const name = (err as Error)?.name;
    if (name === "TimeoutError" || name === "AbortError")
      throw new ProviderError("retry", `${label}: no response within ${Math.round(timeoutMs / 1000)} s.`, "timeout");
    throw new ProviderError("retry", `${label}: network error (${(err as Error)?.message ?? String(err)}).`, "network");
  }
}

/** A provider's JSON body: untrusted, so every use reads it field by field with optional chaining and type checks. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the one escape hatch for provider bodies, narrowed at each use
export type ProviderJson = any;

/** Reads the body as JSON, or null; always drains it so the connection can be reused. */
export async function readJson(res: Response): Promise<ProviderJson> {
  const text = await res.text().catch(() => "");
  if (!text) return null;
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}

/** Statuses worth retrying: rate limiting, server errors, and 408 (the request timed out before being handled). */
export const isTransientStatus = (status: number) => status === 429 || status === 408 || status >= 500;

/** The `fetch` to use: the given one, or the global called as a plain function (workerd rejects a foreign `this`). */
export const fetchFrom = (given?: typeof fetch): typeof fetch => given ?? ((input, init) => fetch(input, init));

/** How an HTTP provider reaches its API (tests point `apiBase` at a fake on loopback). */
export type HttpTransport = {
  apiBase?: string;
  fetch?: typeof fetch;
  /** Per request; a timeout is treated like a network error (retry). */
  timeoutMs?: number;
};

/** The transport's settings resolved: the API base without a trailing slash, the fetch, the timeout (20 s). */
export function transportOf(config: HttpTransport, defaultBase: string) {
  return {
    base: (config.apiBase?.trim() || defaultBase).replace(/\/+$/, ""),
    doFetch: fetchFrom(config.fetch),
    timeoutMs: config.timeoutMs ?? 20_000,
  };
}

/** "<label>: <text>." — a provider's error text as one sentence, its own final stop kept. */
export const providerMessage = (label: string, text: string) => `${label}: ${/[.!?]$/.test(text) ? text : text + "."}`;

/** A non-2xx answer → ProviderError: retryable for the transient statuses (with the wait), permanent otherwise. */
export function providerError(
  res: Response,
  message: string,
  code: string,
  retryAfterSeconds: number | null,
  suppress = false,
): ProviderError {
  if (isTransientStatus(res.status)) return new ProviderError("retry", message, code, retryAfterSeconds);
  return new ProviderError("permanent", message, code, null, suppress);
}

/**
 * One HTTP provider's calls: the transport resolved once, then each call fetches (network failures → retry), reads
 * the JSON body and turns a non-2xx answer into the provider's own ProviderError.
 */
export function providerClient(
  config: HttpTransport,
  defaultBase: string,
  label: string,
  errorFromResponse: (res: Response, json: ProviderJson) => ProviderError,
) {
  const { base, doFetch, timeoutMs } = transportOf(config, defaultBase);
  return {
    base,
    async call(url: string, init: RequestInit): Promise<{ res: Response; json: ProviderJson }> {
      const res = await fetchOrRetry(doFetch, label, url, init, timeoutMs);
      const json = await readJson(res);
      if (!res.ok) throw errorFromResponse(res, json);
      return { res, json };
    },
    /** The same request for a body that is not JSON (a media file): the response unread when it is 2xx. */
    async raw(url: string, init: RequestInit): Promise<Response> {
      const res = await fetchOrRetry(doFetch, label, url, init, timeoutMs);
      if (!res.ok) throw errorFromResponse(res, await readJson(res));
      return res;
    },
  };
}
