import type { EmailAttachment } from "~/db/schema";

/**
 * One interface per channel; the registry (registry.server.ts) picks the implementation from configuration.
 * Providers only talk to the outside world: they never touch D1 message rows (the pipeline does).
 */

export type ProviderName = "twilio" | "sendgrid" | "outbox";

/** A provider's answer to a send it accepted. */
export type SendAccepted = {
  /** Provider message id (Twilio "SM…", SendGrid X-Message-Id, outbox "OB…"). */
  sid: string;
  /** Normalised status right after acceptance. */
  status: "queued" | "sent" | "delivered";
};

/**
 * `retry`: transient (HTTP 429, 5xx, network) — try again later, after `retryAfterSeconds` when the provider said.
 * `permanent`: will never succeed (e.g. Twilio 21610 recipient opted out, 21211 invalid number, 4xx auth/config).
 * `optedOut` is set when the provider reports the recipient unsubscribed (Twilio 21610), so the pipeline suppresses it.
 */
export class ProviderError extends Error {
  constructor(
    readonly kind: "retry" | "permanent",
    message: string,
    readonly code: string | null = null,
    readonly retryAfterSeconds: number | null = null,
    readonly optedOut = false,
  ) {
    super(message);
  }
}

export type SmsSend = {
  to: string; // E.164
  body: string;
  /** Public URLs of pictures to send with it (an MMS, decision 076): Twilio fetches each; none for a text. */
  mediaUrls?: readonly string[];
  /** Absolute URL Twilio should POST status callbacks to. */
  statusCallback: string | null;
  /** Our message id, for logs and the local outbox. */
  messageId: number;
  /**
   * This message's sender (decision 045: the contact's sticky sender, its owner's number or the default): an E.164
   * number or a Messaging Service SID (MG…). Absent: the provider's configured `sender`.
   */
  from?: string;
};

/** A message the provider already has, found when reconciling a row stuck in `sending`. */
export type ProviderMessage = { sid: string; status: string; to: string; body: string; dateCreated: Date | null };

/** A Messaging Service as the provider reports it: its numbers and its US A2P 10DLC campaigns (decision 067). */
export type A2pService = {
  sid: string;
  name: string;
  numbers: string[];
  campaigns: { sid: string; status: string; useCase: string | null }[];
};

/**
 * What a carrier lookup says a number is (issue 29 item 6): a landline cannot receive texts; `other` is a toll-free,
 * pager, voicemail or premium line; `unknown` when the lookup could not tell.
 */
export type LineType = "mobile" | "landline" | "voip" | "other" | "unknown";

export interface SmsProvider {
  readonly name: ProviderName;
  /** The configured default sender (a phone number or a messaging-service sid); a message may name its own (`from`). */
  readonly sender: string;
  send(msg: SmsSend): Promise<SendAccepted>;
  /**
   * Messages sent to `to` since `since` (newest first). Used only to reconcile rows whose outcome is
   * unknown (a crash between the provider accepting and us recording it) — never to decide to resend blindly.
   */
  findSent(to: string, since: Date): Promise<ProviderMessage[]>;
  /**
   * Whether this E.164 number, or Messaging Service SID, is one of the account's own (a rep's sender, decision 045). Absent: the
   * provider has no account to ask (the local outbox), and any well-formed number is taken.
   */
  ownsNumber?(number: string): Promise<boolean>;
  /**
   * One file of an inbound MMS (decision 057), fetched with the account's credentials: only a media URL of this
   * account's messages on the provider's own API is fetched — a webhook's URL pointing anywhere else is refused
   * before any request leaves. The caller reads (and caps) the body. Absent: the local outbox has no media to give.
   */
  fetchMedia?(url: string): Promise<Response>;
  /**
   * The account's Messaging Services (at most A2P_SERVICES_READ), each with its numbers and A2P 10DLC campaigns.
   * Absent: no carrier registration applies (the local outbox).
   */
  a2pServices?(): Promise<A2pService[]>;
  /**
   * The number's line type and carrier from the provider's lookup (Twilio Lookup v2 `line_type_intelligence`, a paid
   * request). Absent: no lookup to ask (the local outbox), and numbers stay as their format says.
   */
  lookupLineType?(phone: string): Promise<{ type: LineType; carrier: string | null }>;
  /**
   * The account's toll-free verifications (Twilio: PENDING_REVIEW, IN_REVIEW, TWILIO_APPROVED, TWILIO_REJECTED), each
   * with its number. Absent: no carrier verification applies (the local outbox).
   */
  tollFreeVerifications?(): Promise<TollFreeVerification[]>;
}

/** One toll-free number's verification as the provider reports it (decision 067's addendum). */
export type TollFreeVerification = { sid: string; number: string; status: string; rejectionReason: string | null };

/** How many Messaging Services one registration check reads (three requests each): an account has a handful. */
export const A2P_SERVICES_READ = 20;

export type EmailSend = {
  to: string;
  subject: string;
  text: string;
  html: string;
  /** Files to attach (an appointment reminder's calendar invite); absent or empty: none. */
  attachments?: readonly EmailAttachment[] | null;
  /** RFC 8058 one-click unsubscribe URL (also in List-Unsubscribe); null for staff mail, which carries none. */
  unsubscribeUrl: string | null;
  messageId: number;
};

export interface EmailProvider {
  readonly name: ProviderName;
  readonly sender: string;
  send(msg: EmailSend): Promise<SendAccepted>;
}
