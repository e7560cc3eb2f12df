// Twilio Programmable Messaging over plain fetch (docs/decisions/003-twilio-over-fetch.md): the SDK adds ~417 KiB
// gzipped to the Worker for two REST calls.
import { formBody } from "./form-body";
import { parseRetryAfter, providerClient, providerError, providerMessage } from "./http-errors.server";
import type { HttpTransport, ProviderJson } from "./http-errors.server";
import {
  A2P_SERVICES_READ,
  ProviderError,
  type A2pService,
  type LineType,
  type ProviderMessage,
  type SendAccepted,
  type SmsProvider,
  type TollFreeVerification,
} from "./provider";

export const TWILIO_API_BASE = "https://api.twilio.com";
/** Messaging Services live on their own host; a test's `apiBase` (one fake on loopback) serves both. */
export const TWILIO_MESSAGING_BASE = "https://messaging.twilio.com";
/** The Lookup API's host (the same test fake serves it). */
export const TWILIO_LOOKUPS_BASE = "https://lookups.twilio.com";

/** Lookup v2's line types → ours (https://www.twilio.com/docs/lookup/v2-api/line-type-intelligence). */
function lineTypeOf(type: unknown): LineType {
  if (type === "mobile") return "mobile";
  if (type === "landline") return "landline";
  if (type === "fixedVoip" || type === "nonFixedVoip") return "voip";
  if (typeof type === "string" && type && type !== "unknown") return "other";
  return "unknown";
}

export type TwilioConfig = HttpTransport & {
  accountSid: string;
  authToken: string;
  /** E.164 sending number; ignored when messagingServiceSid is set. */
  from?: string;
  /** MG…; preferred over `from` when both are set (Twilio then picks the sender and applies its own pacing). */
  messagingServiceSid?: string;
};

// Our wording for the codes people will see; anything else shows Twilio's own message.
const KNOWN_CODES: Record<number, string> = {
  20003: "Authentication failed: check TWILIO_ACCOUNT_SID and TWILIO_AUTH_TOKEN.",
  20404: "The Twilio account or resource was not found: check TWILIO_ACCOUNT_SID.",
  20429: "Too many requests.",
  21211: "The 'To' number is not a valid phone number.",
  21212: "The 'From' number is not a valid phone number or sender ID.",
  21408: "Sending to this number's region is not enabled on the Twilio account.",
  21602: "The message body is empty.",
  21606: "The 'From' number is not an SMS-capable Twilio number on this account.",
  21610: "The recipient has unsubscribed (replied STOP) and cannot be messaged.",
  21612: "Twilio cannot reach this number from the sending number.",
  21614: "The 'To' number is not a mobile number.",
  21617: "The message is longer than 1,600 characters.",
  21701: "The Messaging Service SID is invalid: check TWILIO_MESSAGING_SERVICE_SID.",
  30003: "The destination handset is unreachable.",
  30004: "The message was blocked.",
  30005: "The destination number is unknown or no longer exists.",
  30006: "The destination is a landline or an unreachable carrier.",
  30007: "The carrier filtered the message.",
};

/** A Messaging Service SID ("MG" + 32 hex) rather than a phone number. */
export const isMessagingServiceSid = (sender: string) => /^MG[0-9a-fA-F]{32}$/.test(sender);

/** Twilio's status right after a create → ours. Anything unexpected counts as queued: the status callback settles it. */
function normaliseStatus(status: unknown): SendAccepted["status"] {
  if (status === "sent") return "sent";
  if (status === "delivered" || status === "read") return "delivered";
  return "queued";
}

/** Non-2xx → ProviderError. 429/408/5xx are retryable; every other 4xx will fail the same way again. */
function errorFromResponse(res: Response, json: ProviderJson): ProviderError {
  const n = Number(json?.code);
  const twilioCode = json?.code != null && Number.isInteger(n) && n > 0 ? n : null;
  const text =
    (twilioCode !== null && KNOWN_CODES[twilioCode]) ||
    (typeof json?.message === "string" && json.message) ||
    res.statusText ||
    "Request failed.";
  const label = twilioCode !== null ? `Twilio ${twilioCode}` : `Twilio HTTP ${res.status}`;
  const code = twilioCode !== null ? String(twilioCode) : `http_${res.status}`;
  const retryAfter = parseRetryAfter(res.headers.get("Retry-After"));
  return providerError(res, providerMessage(label, text), code, retryAfter, twilioCode === 21610);
}

/** RFC 2822 ("Thu, 30 Jul 2015 20:12:31 +0000") → Date, or null. */
function parseTwilioDate(value: unknown): Date | null {
  if (typeof value !== "string" || !value) return null;
  const ms = Date.parse(value);
  return Number.isNaN(ms) ? null : new Date(ms);
}

export function createTwilioSms(config: TwilioConfig): SmsProvider {
  const accountSid = config.accountSid.trim();
  const messagingServiceSid = config.messagingServiceSid?.trim() || undefined;
  const from = config.from?.trim() || undefined;
  if (!accountSid || !config.authToken) throw new Error("Twilio needs an account SID and an auth token.");
  if (!from && !messagingServiceSid) throw new Error("Twilio needs a From number or a Messaging Service SID.");

  const api = providerClient(config, TWILIO_API_BASE, "Twilio", errorFromResponse);
  const messagesUrl = `${api.base}/2010-04-01/Accounts/${encodeURIComponent(accountSid)}/Messages.json`;
  const numbersUrl = `${api.base}/2010-04-01/Accounts/${encodeURIComponent(accountSid)}/IncomingPhoneNumbers.json`;
  const authorization = "Basic " + btoa(`${accountSid}:${config.authToken}`);
  const servicesUrl = `${config.apiBase?.trim() ? api.base : TWILIO_MESSAGING_BASE}/v1/Services`;
  const lookupUrl = `${config.apiBase?.trim() ? api.base : TWILIO_LOOKUPS_BASE}/v2/PhoneNumbers/`;

  // This account's inbound media (decision 057): /2010-04-01/Accounts/AC…/Messages/MM…/Media/ME… on the API host.
  const mediaPath = new RegExp(
    `^/2010-04-01/Accounts/${accountSid.replace(/[^A-Za-z0-9]/g, "")}/Messages/(?:MM|SM)[0-9a-fA-F]{32}/Media/ME[0-9a-fA-F]{32}$`,
  );

  return {
    name: "twilio",
    sender: messagingServiceSid ?? from!,

    async fetchMedia(url) {
      let parsed: URL;
      try {
        parsed = new URL(url);
      } catch {
        throw new ProviderError("permanent", "Not a media URL of this Twilio account.", "media_url");
      }
      if (parsed.origin !== new URL(api.base).origin || !mediaPath.test(parsed.pathname) || parsed.search)
        throw new ProviderError("permanent", "Not a media URL of this Twilio account.", "media_url");
      return api.raw(parsed.toString(), { method: "GET", headers: { Authorization: authorization } });
    },

    async send(msg) {
      const form: [string, string][] = [
        ["To", msg.to],
        ["Body", msg.body],
      ];
      // An MMS: one MediaUrl per picture (Twilio fetches them; a picture may stand without text).
      for (const url of msg.mediaUrls ?? []) form.push(["MediaUrl", url]);
      // A rep's own sender (decision 045) or the configured one; an MG… sid is a Messaging Service, else a number.
      const sender = msg.from || messagingServiceSid || from!;
      form.push([isMessagingServiceSid(sender) ? "MessagingServiceSid" : "From", sender]);
      if (msg.statusCallback) form.push(["StatusCallback", msg.statusCallback]);

      const { res, json } = await api.call(messagesUrl, {
        method: "POST",
        headers: {
          Authorization: authorization,
          "Content-Type": "application/x-www-form-urlencoded",
          Accept: "application/json",
        },
        body: formBody(form),
      });
      if (typeof json?.sid !== "string" || !json.sid) {
        // Twilio took the message but we cannot tell which one it is: permanent, because a retry could send it twice.
        throw new ProviderError(
          "permanent",
          `Twilio HTTP ${res.status}: the message was accepted but the response could not be read; not retried to avoid a duplicate.`,
          "unreadable_response",
        );
      }
      return { sid: json.sid, status: normaliseStatus(json.status) };
    },

    async findSent(to, since) {
      // No DateSent filter: Twilio leaves date_sent empty while a message waits in its own queue, and
      // those are exactly the ones a reconciler must not miss. The newest 50 to this number, cut by date_created.
      const query = new URLSearchParams({ To: to, PageSize: "50" });
      const { json } = await api.call(`${messagesUrl}?${query}`, {
        method: "GET",
        headers: { Authorization: authorization, Accept: "application/json" },
      });
      const list: ProviderJson[] = Array.isArray(json?.messages) ? json.messages : [];
      const found: ProviderMessage[] = list
        .filter((m) => typeof m?.sid === "string")
        .map((m) => ({
          sid: m.sid,
          status: String(m.status ?? ""),
          to: String(m.to ?? ""),
          body: String(m.body ?? ""),
          dateCreated: parseTwilioDate(m.date_created),
        }))
        .filter((m) => m.dateCreated === null || m.dateCreated.getTime() >= since.getTime());
      // Newest first, as Twilio lists them; undated last.
      const t = (m: ProviderMessage) => m.dateCreated?.getTime() ?? Number.MIN_SAFE_INTEGER;
      return found.sort((a, b) => t(b) - t(a));
    },

    async lookupLineType(phone) {
      const { json } = await api.call(`${lookupUrl}${encodeURIComponent(phone)}?Fields=line_type_intelligence`, {
        method: "GET",
        headers: { Authorization: authorization, Accept: "application/json" },
      });
      const info = json?.line_type_intelligence as ProviderJson | null | undefined;
      const carrier =
        typeof info?.carrier_name === "string" && info.carrier_name ? info.carrier_name.slice(0, 100) : null;
      return { type: lineTypeOf(info?.type), carrier };
    },

    async tollFreeVerifications() {
      const get = async (url: string): Promise<ProviderJson> =>
        (await api.call(url, { method: "GET", headers: { Authorization: authorization, Accept: "application/json" } }))
          .json;
      const base = config.apiBase?.trim() ? api.base : TWILIO_MESSAGING_BASE;
      // The verifications name their number by its PN sid: the account's numbers give the number.
      const [verifications, numbers] = await Promise.all([
        get(`${base}/v1/Tollfree/Verifications?PageSize=50`),
        get(`${numbersUrl}?PageSize=1000`),
      ]);
      const numberOf = new Map(
        (Array.isArray(numbers?.incoming_phone_numbers) ? (numbers.incoming_phone_numbers as ProviderJson[]) : []).map(
          (n) => [String(n?.sid ?? ""), String(n?.phone_number ?? "")],
        ),
      );
      const list: ProviderJson[] = Array.isArray(verifications?.verifications) ? verifications.verifications : [];
      return list.flatMap((v): TollFreeVerification[] => {
        const number = numberOf.get(String(v?.tollfree_phone_number_sid ?? ""));
        return number
          ? [
              {
                sid: String(v?.sid ?? ""),
                number,
                status: String(v?.status ?? ""),
                rejectionReason: typeof v?.rejection_reason === "string" ? v.rejection_reason.slice(0, 300) : null,
              },
            ]
          : [];
      });
    },

    async a2pServices() {
      const get = async (url: string): Promise<ProviderJson> =>
        (await api.call(url, { method: "GET", headers: { Authorization: authorization, Accept: "application/json" } }))
          .json;
      const list = (json: ProviderJson, key: string): ProviderJson[] =>
        Array.isArray(json?.[key]) ? (json[key] as ProviderJson[]) : [];
      // The configured service alone when there is one; else the account's (one page: an account has a handful).
      const services = messagingServiceSid
        ? [
            {
              sid: messagingServiceSid,
              friendly_name: (await get(`${servicesUrl}/${messagingServiceSid}`))?.friendly_name,
            },
          ]
        : list(await get(`${servicesUrl}?PageSize=${A2P_SERVICES_READ}`), "services");
      const out: A2pService[] = [];
      for (const service of services.slice(0, A2P_SERVICES_READ)) {
        const sid = String(service?.sid ?? "");
        if (!isMessagingServiceSid(sid)) continue;
        const base = `${servicesUrl}/${encodeURIComponent(sid)}`;
        const [numbers, campaigns] = await Promise.all([
          get(`${base}/PhoneNumbers?PageSize=1000`),
          get(`${base}/Compliance/Usa2p?PageSize=50`),
        ]);
        out.push({
          sid,
          name: String(service?.friendly_name ?? ""),
          numbers: list(numbers, "phone_numbers")
            .map((n) => String(n?.phone_number ?? ""))
            .filter(Boolean),
          campaigns: list(campaigns, "compliance").map((c) => ({
            sid: String(c?.sid ?? ""),
            status: String(c?.campaign_status ?? ""),
            useCase: typeof c?.us_app_to_person_usecase === "string" ? c.us_app_to_person_usecase : null,
          })),
        });
      }
      return out;
    },

    async ownsNumber(number) {
      if (isMessagingServiceSid(number)) {
        // A Messaging Service of this account answers 200; another account's, or none, 404 (Twilio 20404).
        try {
          await api.call(`${servicesUrl}/${encodeURIComponent(number)}`, {
            method: "GET",
            headers: { Authorization: authorization, Accept: "application/json" },
          });
          return true;
        } catch (err) {
          if (err instanceof ProviderError && (err.code === "20404" || err.code === "http_404")) return false;
          throw err;
        }
      }
      // IncomingPhoneNumbers filtered by the exact number: one page of at most one resource.
      const query = new URLSearchParams({ PhoneNumber: number, PageSize: "1" });
      const { json } = await api.call(`${numbersUrl}?${query}`, {
        method: "GET",
        headers: { Authorization: authorization, Accept: "application/json" },
      });
      const list: ProviderJson[] = Array.isArray(json?.incoming_phone_numbers) ? json.incoming_phone_numbers : [];
      return list.some((n) => n?.phone_number === number);
    },
  };
}
