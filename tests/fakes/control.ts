// Drives the fake Twilio / SendGrid servers (started in Node by tests/global-setup.ts) from tests running inside
// workerd, over their HTTP /__control API. Each test should take its own account/key (`newFakeTwilioAccount()`,
// `newFakeSendGridKey()`): test files run in parallel against the same servers, and an account isolates calls,
// messages and injected failures.
import { expect, inject } from "vitest";
import { ProviderError } from "~/messaging/providers/provider";
import "./provided-context";

export type FakeTwilioCall = {
  to: string | null;
  from: string | null;
  body: string | null;
  statusCallback: string | null;
  /** Every MediaUrl of the create request, in order (an MMS; [] for a text). */
  mediaUrls: string[];
  messagingServiceSid: string | null;
  at: number;
  /** Every form field the fake received. */
  params: Record<string, string>;
  contentType: string | null;
  /** What the fake answered (0 = connection dropped). */
  httpStatus: number;
  sid: string | null;
  errorCode: number | null;
};

export type FakeSendGridCall = {
  to: string[];
  from: string | null;
  fromName: string | null;
  subject: string | null;
  text: string | null;
  html: string | null;
  headers: Record<string, string>;
  customArgs: Record<string, string>;
  /** Attachments as sent, their base64 content decoded to UTF-8 text. */
  attachments: { filename: string | null; type: string | null; disposition: string | null; content: string | null }[];
  at: number;
  contentType: string | null;
  httpStatus: number;
  messageId: string | null;
  payload: any;
};

export type FailNextOptions = { retryAfter?: number | string; code?: number; message?: string; afterCreate?: boolean };

async function control<T = unknown>(base: string, path: string, body?: unknown): Promise<T> {
  const res = await fetch(base + "/__control" + path, {
    method: body === undefined ? "GET" : "POST",
    headers: body === undefined ? undefined : { "Content-Type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  if (!res.ok) throw new Error(`fake control ${path} → ${res.status}: ${text}`);
  return (text ? JSON.parse(text) : undefined) as T;
}

/**
 * What both provider fakes offer per isolated account or key: injected failures and delays, the calls recorded,
 * connection stats. `scope` is the query that selects the account (`account=…` / `key=…`).
 */
abstract class FakeProviderScope<Call> {
  constructor(readonly url: string) {}
  protected abstract scope(): string;

  protected q(path: string) {
    return `${path}${path.includes("?") ? "&" : "?"}${this.scope()}`;
  }
  /** The next n API requests fail with `status` (0 = the connection is dropped). */
  failNext(n: number, status = 429, opts: FailNextOptions = {}) {
    return control(this.url, this.q("/fail-next"), { n, status, ...opts });
  }
  setDelay(ms: number) {
    return control(this.url, this.q("/delay"), { ms });
  }
  reset() {
    return control(this.url, this.q("/reset"), {});
  }
  async calls(): Promise<Call[]> {
    return (await control<{ calls: Call[] }>(this.url, this.q("/calls"))).calls;
  }
  stats() {
    return control<{ requests: number; connections: { open: number; total: number } }>(this.url, this.q("/stats"));
  }
}

export class FakeTwilioAccount extends FakeProviderScope<FakeTwilioCall> {
  constructor(
    url: string,
    readonly accountSid: string,
    readonly authToken: string,
  ) {
    super(url);
  }
  protected scope() {
    return `account=${encodeURIComponent(this.accountSid)}`;
  }

  /** Config for createTwilioSms pointing at the fake. */
  config(extra: { from?: string; messagingServiceSid?: string } = { from: "+15005550006" }) {
    return { accountSid: this.accountSid, authToken: this.authToken, apiBase: this.url, ...extra };
  }
  async messages(): Promise<Array<Record<string, any>>> {
    return (await control<{ messages: Array<Record<string, any>> }>(this.url, this.q("/messages"))).messages;
  }
  /** Sends to `to` fail with Twilio 21211. */
  addInvalid(to: string) {
    return control(this.url, this.q("/invalid"), { to });
  }
  /** Sends to `to` fail with Twilio 21610; with `from`, only sends from that number (Twilio keeps a STOP per sender). */
  addUnsubscribed(to: string, from?: string) {
    return control(this.url, this.q("/unsubscribed"), { to, from });
  }
  setNumberError(to: string, code: number, opts: { message?: string; status?: number } = {}) {
    return control(this.url, this.q("/number-error"), { to, code, ...opts });
  }
  /** A file of an inbound MMS, served only to this account's credentials; returns the MediaUrl a webhook names. */
  async addMedia(bytes: Uint8Array, contentType: string): Promise<string> {
    let binary = "";
    for (const b of bytes) binary += String.fromCharCode(b);
    return (await control<{ url: string }>(this.url, this.q("/media"), { base64: btoa(binary), contentType })).url;
  }
  /** The account owns these numbers: IncomingPhoneNumbers lists them, and a send From another number fails (21606). */
  addIncomingNumbers(numbers: string[]) {
    return control(this.url, this.q("/incoming-numbers"), { numbers });
  }
  /** The account's Messaging Services, each with its numbers and A2P 10DLC campaigns (statuses as Twilio spells them). */
  /** The account's toll-free numbers and their verifications (GET /v1/Tollfree/Verifications). */
  setTollFree(verifications: { number: string; status: string; rejectionReason?: string }[]) {
    return control(this.url, this.q("/toll-free"), { verifications });
  }
  /** What the Lookup API answers for these numbers' line type (any other number: mobile). */
  setLineTypes(types: Record<string, string | null>) {
    return control(this.url, this.q("/line-types"), { types });
  }
  async lookups(): Promise<number> {
    return (await control<{ lookups: number }>(this.url, this.q("/lookups"))).lookups;
  }
  setA2p(
    services: { sid: string; name?: string; numbers: string[]; campaigns: { status: string; useCase?: string }[] }[],
  ) {
    return control(this.url, this.q("/a2p"), { services });
  }
  /**
   * Makes the fake POST a signed status callback (as Twilio would) to `url` (default: the message's StatusCallback).
   * A URL under `${this.url}/__sink/` is recorded by the fake and readable with `sink()`.
   */
  statusCallback(
    sid: string,
    status: string,
    opts: { url?: string; signWith?: string; errorCode?: number | string } = {},
  ) {
    return control<{ url: string; params: Record<string, string>; signature: string; status: number; body: string }>(
      this.url,
      this.q("/status-callback"),
      { sid, status, ...opts },
    );
  }
  async sink(
    prefix = "/__sink/",
  ): Promise<Array<{ path: string; headers: Record<string, string>; body: string; params: Record<string, string> }>> {
    return (await control<{ requests: any[] }>(this.url, `/sink?prefix=${encodeURIComponent(prefix)}`)).requests;
  }
}

export class FakeSendGridKey extends FakeProviderScope<FakeSendGridCall> {
  constructor(
    url: string,
    readonly apiKey: string,
  ) {
    super(url);
  }
  protected scope() {
    return `key=${encodeURIComponent(this.apiKey)}`;
  }

  /** Config for createSendGridEmail pointing at the fake. */
  config(extra: { from?: string; fromName?: string } = {}) {
    return { apiKey: this.apiKey, apiBase: this.url, from: "news@helio.test", ...extra };
  }
  addInvalid(to: string) {
    return control(this.url, this.q("/invalid"), { to });
  }
}

export const fakeTwilioUrl = () => inject("fakeTwilioUrl");
export const fakeSendGridUrl = () => inject("fakeSendGridUrl");

/** The account global-setup started the fake with (shared by every test file: prefer a new account). */
export const sharedFakeTwilioAccount = () =>
  new FakeTwilioAccount(inject("fakeTwilioUrl"), inject("fakeTwilioAccountSid"), inject("fakeTwilioAuthToken"));
export const sharedFakeSendGridKey = () => new FakeSendGridKey(inject("fakeSendGridUrl"), inject("fakeSendGridApiKey"));

/** A fresh, isolated Twilio account on the shared fake. */
export async function newFakeTwilioAccount(): Promise<FakeTwilioAccount> {
  const url = inject("fakeTwilioUrl");
  const { accountSid, authToken } = await control<{ accountSid: string; authToken: string }>(url, "/accounts", {});
  return new FakeTwilioAccount(url, accountSid, authToken);
}

/** A fresh, isolated SendGrid API key on the shared fake. */
export async function newFakeSendGridKey(): Promise<FakeSendGridKey> {
  const url = inject("fakeSendGridUrl");
  const { apiKey } = await control<{ apiKey: string }>(url, "/keys", {});
  return new FakeSendGridKey(url, apiKey);
}

/** The fake OpenAI-compatible server: each key is an isolated account (queued answers, failures, calls). */
export function newFakeOpenAiKey(): string {
  return `sk-test-${crypto.randomUUID()}`;
}

export const fakeOpenAiBase = () => `${inject("fakeOpenAiUrl")}/v1`;

async function openAiControl(path: string, body: Record<string, unknown>) {
  const res = await fetch(`${inject("fakeOpenAiUrl")}/__control/${path}`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify(body),
  });
  if (!res.ok) throw new Error(`fake OpenAI control ${path}: HTTP ${res.status}`);
  return res.json();
}

/** Queue the next completion's message content (optionally answered after `delayMs`). */
export const queueOpenAiAnswer = (key: string, content: string, delayMs?: number, chunkDelayMs?: number) =>
  openAiControl("answer", { key, content, delayMs, chunkDelayMs });
/**
 * The account answers like a model steered by the prompt's text (no queued answers needed): "gullible" follows a
 * "Reply with: …" anywhere, "fence-aware" only outside `<<< … >>>` fences. `field` is the JSON key it answers in.
 */
export const obeyOpenAi = (key: string, mode: "gullible" | "fence-aware", field = "reply") =>
  openAiControl("obey", { key, mode, field });
/** The next `count` completions fail with `status` (0 = connection dropped). */
export const failOpenAi = (key: string, count = 1, status = 500) => openAiControl("fail", { key, count, status });
export const openAiCalls = (key: string) =>
  openAiControl("calls", { key }) as Promise<
    Array<{
      model: string;
      messages: Array<{ role: string; content: string }>;
      response_format: unknown;
      chunksSent: number;
      closedByClient: boolean;
    }>
  >;

/** The ProviderError a provider call rejected with (the test fails if it resolved or threw something else). */
export async function providerError(p: Promise<unknown>): Promise<ProviderError> {
  const err = await p.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(ProviderError);
  return err as ProviderError;
}

export type FakeWebhookDelivery = {
  at: number;
  eventId: string | null;
  signature: string | null;
  contentType: string | null;
  body: string;
  verified: boolean;
  problem: string | null;
  answered: number;
};

/** One endpoint on the fake webhook receiver: its URL, the secret it checks, its failures and what it got. */
export async function newFakeWebhookEndpoint() {
  const base = inject("fakeWebhookReceiverUrl");
  const { id, url } = await control<{ id: string; url: string }>(base, "/endpoints", {});
  return {
    url,
    setSecret: (secret: string) => control(base, `/endpoints/${id}/secret`, { secret }),
    /** The next n deliveries get `status` (0 = the connection dropped), after `delayMs`. */
    failNext: (n: number, status = 500, delayMs = 0) =>
      control(base, `/endpoints/${id}/fail-next`, { n, status, delayMs }),
    deliveries: async () =>
      (await control<{ deliveries: FakeWebhookDelivery[] }>(base, `/endpoints/${id}/deliveries`)).deliveries,
  };
}
