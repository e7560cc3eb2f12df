// A fake Twilio Messaging REST API for tests and benchmarks, speaking Twilio's wire format (form-encoded
// requests, Message resource / list envelope / error JSON, signed status callbacks). Plain Node; it shares no code
// with the app on purpose, so signatures it makes are an independent cross-check of app/messaging/twilio-signature.ts.
//
// Control API (for code that cannot call these functions, e.g. tests running inside workerd), all JSON:
//   GET  /__control/health                      → { ok, accountSid }
//   POST /__control/accounts   { accountSid?, authToken? } → 201 { accountSid, authToken }: a new isolated account
//   Every endpoint below acts on the main account, or on ?account=AC… (one account per test keeps parallel test
//   files from seeing each other's calls and injected failures).
//   POST /__control/reset                       → forget calls/messages/failures/delay, restore number sets
//   POST /__control/fail-next  { n, status, retryAfter?, code?, message?, afterCreate? }   (status 0 = drop the connection;
//                              afterCreate = create the message first, then drop: the client never hears it was accepted)
//   POST /__control/delay      { ms }
//   GET  /__control/calls                       → { calls }
//   GET  /__control/messages[/SM…]              → { messages } | the resource
//   POST /__control/invalid    { to }           → sends to `to` fail with 21211
//   POST /__control/unsubscribed { to, from? }  → sends to `to` fail with 21610 (only From `from`, when given: Twilio
//                              keeps a STOP per sender, so the recipient's texts from other numbers still go)
//   POST /__control/number-error { to, code, message?, status? }
//   POST /__control/incoming-numbers { numbers } → the account owns these numbers (IncomingPhoneNumbers lists them;
//                              once it owns any, a send From another number fails with 21606, as at Twilio;
//                              an MG… sid among them is a Messaging Service: GET /v1/Services/MG… answers it)
//   POST /__control/line-types { types: { "+1…": "landline" | "mobile" | "fixedVoip" | … | null } } → what the
//                              Lookup API (GET /v2/PhoneNumbers/+1…?Fields=line_type_intelligence, lookups.twilio.com
//                              at Twilio) answers for those numbers; any other number is "mobile".
//   GET  /__control/lookups                     → { lookups } made since the last reset
//   POST /__control/toll-free { verifications: [{ number, status, rejectionReason? }] } → the account owns these toll-free
//                              numbers and their verifications (GET /v1/Tollfree/Verifications lists them)
//   POST /__control/a2p { services: [{ sid, name?, numbers, campaigns: [{ status, useCase? }] }] } → the account's
//                              Messaging Services with their numbers and A2P 10DLC campaigns (GET /v1/Services,
//                              /v1/Services/MG…/PhoneNumbers and /v1/Services/MG…/Compliance/Usa2p list them)
//   POST /__control/status-callback { sid, status, url?, signWith?, errorCode? } → { url, params, signature, status, body }
//   GET  /__control/sink?prefix=/__sink/x       → { requests } POSTed to /__sink/* (a callback target on this server)
//   GET  /__control/stats                       → { requests, connections: { open, total } }
import { createHmac } from "node:crypto";
import {
  answerScopeControl,
  createFailureQueue,
  listen,
  randomHex,
  readBody,
  rfc2822,
  sendJson,
  sleep,
} from "./fake-http.mjs";

const API = "/2010-04-01";

// Twilio's test-credential "magic" numbers, so the fake fails where real test credentials would.
const DEFAULT_NUMBER_ERRORS = {
  "+15005550001": 21211,
  "+15005550002": 21612,
  "+15005550003": 21408,
  "+15005550004": 21610,
  "+15005550009": 21614,
};

/** @param {number} code @param {string} to */
function twilioMessageFor(code, to) {
  switch (code) {
    case 21211:
      return `The 'To' number ${to} is not a valid phone number.`;
    case 21610:
      return "Attempt to send to unsubscribed recipient";
    case 21612:
      return `The 'To' phone number: ${to}, is not currently reachable using the 'From' phone number via SMS.`;
    case 21614:
      return `'To' number ${to} is not a valid mobile number`;
    case 21408:
      return `Permission to send an SMS has not been enabled for the region indicated by the 'To' number: ${to}.`;
    case 21606:
      return "The 'From' phone number provided is not a valid message-capable Twilio phone number for this destination/account.";
    default:
      return `Error ${code}`;
  }
}

const HTTP_DEFAULTS = {
  400: [21000, "Bad Request"],
  401: [20003, "Authenticate"],
  404: [20404, "The requested resource was not found"],
  429: [20429, "Too Many Requests"],
  500: [20500, "Internal Server Error"],
  502: [20502, "Bad Gateway"],
  503: [20503, "Service Unavailable"],
};

/** @param {number} status @param {number} [code] @param {string} [message] */
/** The `meta` beside a Messaging API list (messaging.twilio.com): one page, the list under `key`. @param {URL} url @param {string} key */
function messagingMeta(url, key) {
  return {
    page: 0,
    page_size: 50,
    first_page_url: url.href,
    previous_page_url: null,
    url: url.href,
    next_page_url: null,
    key,
  };
}

function twilioError(status, code, message) {
  const [defCode, defMessage] = HTTP_DEFAULTS[status] ?? [status * 100, "Error"];
  const c = code ?? defCode;
  return { code: c, message: message ?? defMessage, more_info: `https://www.twilio.com/docs/errors/${c}`, status };
}

const GSM7 =
  "@£$¥èéùìòÇ\nØø\rÅåΔ_ΦΓΛΩΠΨΣΘΞÆæßÉ !\"#¤%&'()*+,-./0123456789:;<=>?¡ABCDEFGHIJKLMNOPQRSTUVWXYZÄÖÑÜ§¿abcdefghijklmnopqrstuvwxyzäöñüà";
const GSM7_EXT = "^{}\\[~]|€\f";

/** Segment count the way carriers split: GSM-7 160/153 per part, otherwise UCS-2 70/67 (UTF-16 units). */
function segmentsFor(body) {
  let septets = 0;
  let gsm = true;
  for (const ch of body) {
    if (GSM7.includes(ch)) septets += 1;
    else if (GSM7_EXT.includes(ch)) septets += 2;
    else {
      gsm = false;
      break;
    }
  }
  if (gsm) return septets <= 160 ? 1 : Math.ceil(septets / 153);
  return body.length <= 70 ? 1 : Math.ceil(body.length / 67);
}

/** HMAC-SHA1 over url + sorted name+value pairs, base64 (https://www.twilio.com/docs/usage/webhooks/webhooks-security). */
export function twilioSignature(authToken, url, params) {
  const data = Object.keys(params)
    .sort()
    .reduce((acc, name) => acc + name + params[name], url);
  return createHmac("sha1", authToken).update(Buffer.from(data, "utf8")).digest("base64");
}

/** "YYYY-MM-DD" or an ISO date-time → epoch ms (UTC). */
function parseDateFilter(value) {
  if (!value) return null;
  const ms = /^\d{4}-\d{2}-\d{2}$/.test(value) ? Date.parse(`${value}T00:00:00Z`) : Date.parse(value);
  return Number.isNaN(ms) ? null : ms;
}

/**
 * One Twilio account's state. Each account is isolated (its own calls, messages, injected failures, delay and
 * number errors), so test files running in parallel can each use their own account on one shared server.
 * @param {string} accountSid
 * @param {string} authToken
 * @param {{ invalidNumbers?: string[], unsubscribedNumbers?: string[] }} options
 */
function createAccount(accountSid, authToken, options = {}) {
  /**
   * @type {Array<{ to: string | null, from: string | null, body: string | null, statusCallback: string | null,
   *   messagingServiceSid: string | null, at: number, params: Record<string, string>, contentType: string | null, httpStatus: number,
   *   sid: string | null, errorCode: number | null }>}
   */
  const calls = [];
  /** @type {Map<string, Record<string, any>>} */
  const messages = new Map();
  /** @type {Map<string, { statusCallback: string | null, createdMs: number, seq: number }>} */
  const meta = new Map();
  /** @type {Map<string, { code: number, message?: string, status?: number }>} */
  const numberErrors = new Map();
  const failures = createFailureQueue();
  const state = { delayMs: 0, requests: 0, seq: 0, lookups: 0 };
  /** @type {Map<string, string>} the account's phone numbers → their PN sid */
  const incomingNumbers = new Map();
  /** The account's Messaging Service sids. @type {Set<string>} */
  const services = new Set();
  /** Each service's name, numbers and A2P campaigns. @type {Map<string, { name: string, numbers: string[], campaigns: { sid: string, status: string, useCase: string }[] }>} */
  const a2p = new Map();
  /** Toll-free verifications: { sid, number, status, rejectionReason }. @type {Array<{ sid: string, number: string, status: string, rejectionReason: string | null }>} */
  const tollFree = [];
  /** Line types the Lookup API answers (any other number: mobile). @type {Map<string, string | null>} */
  const lineTypes = new Map();

  function restoreNumberSets() {
    numberErrors.clear();
    for (const [to, code] of Object.entries(DEFAULT_NUMBER_ERRORS)) numberErrors.set(to, { code });
    for (const to of options.invalidNumbers ?? []) numberErrors.set(to, { code: 21211 });
    for (const to of options.unsubscribedNumbers ?? []) numberErrors.set(to, { code: 21610 });
  }
  restoreNumberSets();

  function createMessage(params, mediaUrls = []) {
    const sid = "SM" + randomHex(16);
    const now = new Date();
    const from = params.From ?? null;
    const mss = params.MessagingServiceSid ?? null;
    const resource = {
      account_sid: accountSid,
      api_version: "2010-04-01",
      body: params.Body,
      date_created: rfc2822(now),
      date_sent: null,
      date_updated: rfc2822(now),
      direction: "outbound-api",
      error_code: null,
      error_message: null,
      from,
      messaging_service_sid: mss,
      num_media: String(mediaUrls.length),
      num_segments: String(segmentsFor(params.Body ?? "")),
      price: null,
      price_unit: "USD",
      sid,
      // A Messaging Service send is "accepted" until a sender is picked; a From send is "queued".
      status: mss && !from ? "accepted" : "queued",
      subresource_uris: { media: `${API}/Accounts/${accountSid}/Messages/${sid}/Media.json` },
      to: params.To,
      uri: `${API}/Accounts/${accountSid}/Messages/${sid}.json`,
    };
    messages.set(sid, resource);
    meta.set(sid, { statusCallback: params.StatusCallback ?? null, createdMs: now.getTime(), seq: state.seq++ });
    return resource;
  }

  /** Validates a create request the way Twilio does; returns [httpStatus, body]. */
  function handleCreate(params, mediaUrls = []) {
    const to = params.To;
    if (!to) return [400, twilioError(400, 21604, "A 'To' phone number is required.")];
    // A picture may stand without text (MMS); a text message needs a body.
    if (!params.Body && !mediaUrls.length) return [400, twilioError(400, 21602, "Message body is required.")];
    if (mediaUrls.length > 10) return [400, twilioError(400, 21623, "Number of media files exceeds allowed limit.")];
    if (mediaUrls.some((u) => !/^https?:\/\//.test(u))) return [400, twilioError(400, 21620, "Invalid media URL(s).")];
    if (!params.From && !params.MessagingServiceSid)
      return [
        400,
        twilioError(400, 21603, "A 'From' or 'MessagingServiceSid' parameter is required to send a message."),
      ];
    if (params.MessagingServiceSid && !/^MG[0-9a-f]{32}$/.test(params.MessagingServiceSid))
      return [400, twilioError(400, 21701, `The Messaging Service Sid ${params.MessagingServiceSid} is invalid.`)];
    if (params.From && !/^\+[1-9]\d{6,14}$/.test(params.From))
      return [
        400,
        twilioError(
          400,
          21212,
          `The 'From' number ${params.From} is not a valid phone number, shortcode, or alphanumeric sender ID.`,
        ),
      ];
    if (params.From && incomingNumbers.size > 0 && !incomingNumbers.has(params.From))
      return [400, twilioError(400, 21606, twilioMessageFor(21606, to))];
    if ((params.Body ?? "").length > 1600)
      return [400, twilioError(400, 21617, "The concatenated message body exceeds the 1600 character limit.")];
    const numberError = numberErrors.get(to) ?? (params.From ? numberErrors.get(`${params.From}>${to}`) : undefined);
    if (numberError) {
      const status = numberError.status ?? 400;
      return [
        status,
        twilioError(status, numberError.code, numberError.message ?? twilioMessageFor(numberError.code, to)),
      ];
    }
    if (!/^\+[1-9]\d{6,14}$/.test(to)) return [400, twilioError(400, 21211, twilioMessageFor(21211, to))];
    return [201, createMessage(params, mediaUrls)];
  }

  /** @param {URL} url */
  function handleList(url) {
    const q = url.searchParams;
    const pageSize = Math.min(Math.max(Number(q.get("PageSize") ?? 50) || 50, 1), 1000);
    const page = Math.max(Number(q.get("Page") ?? 0) || 0, 0);
    const to = q.get("To");
    const from = q.get("From");
    const exact = parseDateFilter(q.get("DateSent"));
    const after = parseDateFilter(q.get("DateSent>="));
    const before = parseDateFilter(q.get("DateSent<"));
    // Simplification: a message not yet sent has date_sent null at Twilio; here the filter falls back to its
    // creation time so freshly created messages can be found.
    const sentMs = (sid, m) => (m.date_sent ? Date.parse(m.date_sent) : meta.get(sid).createdMs);
    const all = [...messages.entries()]
      .filter(([sid, m]) => {
        if (to && m.to !== to) return false;
        if (from && m.from !== from) return false;
        const t = sentMs(sid, m);
        if (after !== null && t < after) return false;
        if (before !== null && t >= before) return false;
        if (exact !== null && (t < exact || t >= exact + 86_400_000)) return false;
        return true;
      })
      .sort(([a], [b]) => meta.get(b).createdMs - meta.get(a).createdMs || meta.get(b).seq - meta.get(a).seq)
      .map(([, m]) => m);
    const start = page * pageSize;
    const slice = all.slice(start, start + pageSize);
    const base = `${API}/Accounts/${accountSid}/Messages.json`;
    const pageUri = (p) => {
      const u = new URLSearchParams(q);
      u.set("PageSize", String(pageSize));
      u.set("Page", String(p));
      return `${base}?${u}`;
    };
    return {
      end: start + Math.max(slice.length - 1, 0),
      first_page_uri: pageUri(0),
      messages: slice,
      next_page_uri: start + pageSize < all.length ? pageUri(page + 1) : null,
      page,
      page_size: pageSize,
      previous_page_uri: page > 0 ? pageUri(page - 1) : null,
      start,
      uri: `${base}?${url.searchParams}`,
    };
  }

  /** IncomingPhoneNumbers list, filtered by ?PhoneNumber= (exact) as Twilio does. @param {URL} url */
  function handleNumbers(url) {
    const q = url.searchParams;
    const pageSize = Math.min(Math.max(Number(q.get("PageSize") ?? 50) || 50, 1), 1000);
    const wanted = q.get("PhoneNumber");
    const list = [...incomingNumbers]
      .filter(([n]) => !wanted || n === wanted)
      .slice(0, pageSize)
      .map(([n, sid]) => ({
        account_sid: accountSid,
        sid,
        phone_number: n,
        friendly_name: n,
        capabilities: { sms: true, mms: true, voice: true, fax: false },
        status: "in-use",
        uri: `${API}/Accounts/${accountSid}/IncomingPhoneNumbers/${sid}.json`,
      }));
    const base = `${API}/Accounts/${accountSid}/IncomingPhoneNumbers.json`;
    return {
      end: Math.max(list.length - 1, 0),
      first_page_uri: `${base}?${q}`,
      incoming_phone_numbers: list,
      next_page_uri: null,
      page: 0,
      page_size: pageSize,
      previous_page_uri: null,
      start: 0,
      uri: `${base}?${q}`,
    };
  }

  /**
   * Answers an authenticated API request for this account.
   * @param {import("node:http").IncomingMessage} req
   * @param {import("node:http").ServerResponse} res
   * @param {URL} url
   * @param {RegExpMatchArray} match
   * @param {string} body
   * @param {number} receivedAt when the request's headers arrived: what a provider counts a request's time by
   */
  async function handleApi(req, res, url, match, body, receivedAt) {
    state.requests++;
    if (state.delayMs > 0) await sleep(state.delayMs);
    if (match[1] !== accountSid)
      return sendJson(res, 404, twilioError(404, 20404, `The requested resource ${url.pathname} was not found`));

    const params = req.method === "POST" ? Object.fromEntries(new URLSearchParams(body)) : {};
    // MediaUrl repeats (one per picture, up to 10): the object above keeps the last, mediaUrls all of them.
    const mediaUrls = req.method === "POST" ? new URLSearchParams(body).getAll("MediaUrl") : [];
    const isCreate = req.method === "POST" && !match[2] && !match[3];
    const record = (httpStatus, sid = null, errorCode = null) => {
      if (!isCreate) return;
      calls.push({
        to: params.To ?? null,
        from: params.From ?? null,
        body: params.Body ?? null,
        mediaUrls,
        statusCallback: params.StatusCallback ?? null,
        messagingServiceSid: params.MessagingServiceSid ?? null,
        at: receivedAt,
        params,
        contentType: req.headers["content-type"] ?? null,
        httpStatus,
        sid,
        errorCode,
      });
    };

    const failure = failures.take();
    // afterCreate: the message IS created, then the connection drops — "accepted, but the answer was lost".
    if (failure?.afterCreate && isCreate) {
      const [status, out] = handleCreate(params, mediaUrls);
      record(status, status === 201 ? out.sid : null, status === 201 ? null : out.code);
      return void req.socket.destroy();
    }
    if (failure) {
      record(failure.status, null, failure.code ?? null);
      if (failure.status === 0) return void req.socket.destroy();
      const headers = failure.retryAfter != null ? { "Retry-After": String(failure.retryAfter) } : {};
      return sendJson(res, failure.status, twilioError(failure.status, failure.code, failure.message), headers);
    }

    if (isCreate) {
      const [status, out] = handleCreate(params, mediaUrls);
      record(status, status === 201 ? out.sid : null, status === 201 ? null : out.code);
      return sendJson(res, status, out);
    }
    if (match[3]) {
      return req.method === "GET"
        ? sendJson(res, 200, handleNumbers(url))
        : sendJson(res, 405, twilioError(405, 20004, "Method not allowed"));
    }
    if (req.method === "GET" && match[2]) {
      const m = messages.get(match[2]);
      return m
        ? sendJson(res, 200, m)
        : sendJson(res, 404, twilioError(404, 20404, `The requested resource ${url.pathname} was not found`));
    }
    if (req.method === "GET") return sendJson(res, 200, handleList(url));
    return sendJson(res, 405, twilioError(405, 20004, "Method not allowed"));
  }

  /**
   * POSTs a status callback for `sid` exactly as Twilio does (form body, X-Twilio-Signature over url + params).
   * @param {string} sid
   * @param {string} status
   * @param {{ signWith?: string, url?: string, errorCode?: number | string }} [opts]
   */
  async function sendStatusCallback(sid, status, opts = {}) {
    const m = messages.get(sid);
    if (!m) throw new Error(`fake Twilio: no message ${sid}`);
    const url = opts.url ?? meta.get(sid)?.statusCallback;
    if (!url) throw new Error(`fake Twilio: message ${sid} has no StatusCallback and no url was given`);
    m.status = status;
    m.date_updated = rfc2822(new Date());
    if ((status === "sent" || status === "delivered") && !m.date_sent) m.date_sent = m.date_updated;
    if (opts.errorCode != null) m.error_code = Number(opts.errorCode);
    /** @type {Record<string, string>} */
    const params = {
      AccountSid: accountSid,
      ApiVersion: "2010-04-01",
      MessageSid: sid,
      MessageStatus: status,
      SmsSid: sid,
      SmsStatus: status,
      To: m.to,
    };
    if (m.from) params.From = m.from;
    if (m.messaging_service_sid) params.MessagingServiceSid = m.messaging_service_sid;
    if (opts.errorCode != null) params.ErrorCode = String(opts.errorCode);
    const signature = twilioSignature(opts.signWith ?? authToken, url, params);
    const res = await fetch(url, {
      method: "POST",
      headers: {
        "Content-Type": "application/x-www-form-urlencoded; charset=utf-8",
        "X-Twilio-Signature": signature,
        "User-Agent": "TwilioProxy/1.1",
        "I-Twilio-Idempotency-Token": randomHex(16),
      },
      body: new URLSearchParams(params).toString(),
    });
    return { url, params, signature, status: res.status, body: await res.text() };
  }

  return {
    accountSid,
    authToken,
    calls,
    messages,
    handleApi,
    /** Requests this account received (API only). */
    get requests() {
      return state.requests;
    },
    /**
     * The next n API requests fail with `status` (0 = connection dropped) and Twilio error JSON.
     * @param {number} n @param {number} [status] @param {{ retryAfter?: number | string, code?: number, message?: string }} [opts]
     */
    failNext(n, status = 429, opts = {}) {
      failures.add(n, status, {
        retryAfter: opts.retryAfter,
        code: opts.code,
        message: opts.message,
        afterCreate: opts.afterCreate,
      });
    },
    get pendingFailures() {
      return failures.pending;
    },
    /** @param {number} ms */
    setDelay(ms) {
      state.delayMs = ms;
    },
    /** @param {string} to */
    addInvalid(to) {
      numberErrors.set(to, { code: 21211 });
    },
    /** @param {string} to @param {string} [from] */
    addUnsubscribed(to, from) {
      numberErrors.set(from ? `${from}>${to}` : to, { code: 21610 });
    },
    /** @param {string} to @param {number} code @param {{ message?: string, status?: number }} [opts] */
    setNumberError(to, code, opts = {}) {
      numberErrors.set(to, { code, message: opts.message, status: opts.status });
    },
    sendStatusCallback,
    /**
     * The account owns these numbers (IncomingPhoneNumbers), and these Messaging Services (an MG… sid: GET
     * /v1/Services/:sid answers it). @param {string[]} numbers
     */
    addIncomingNumbers(numbers) {
      for (const n of numbers) {
        if (/^MG[0-9a-f]{32}$/.test(n)) services.add(n);
        else if (!incomingNumbers.has(n)) incomingNumbers.set(n, "PN" + randomHex(16));
      }
    },
    /** @param {{ sid: string, name?: string, numbers?: string[], campaigns?: { status: string, useCase?: string }[] }[]} list */
    setA2p(list) {
      a2p.clear();
      for (const s of list) {
        services.add(s.sid);
        a2p.set(s.sid, {
          name: s.name ?? `Service ${s.sid.slice(-4)}`,
          numbers: (s.numbers ?? []).map(String),
          campaigns: (s.campaigns ?? []).map((c) => ({
            sid: "QE" + randomHex(16),
            status: String(c.status),
            useCase: c.useCase ?? "MARKETING",
          })),
        });
      }
    },
    /** @param {{ number: string, status: string, rejectionReason?: string }[]} list */
    setTollFree(list) {
      tollFree.length = 0;
      for (const v of list) {
        if (!incomingNumbers.has(v.number)) incomingNumbers.set(v.number, "PN" + randomHex(16));
        tollFree.push({
          sid: "HH" + randomHex(16),
          number: v.number,
          status: String(v.status),
          rejectionReason: v.rejectionReason ?? null,
        });
      }
    },
    /** GET /v1/Tollfree/Verifications (messaging.twilio.com at Twilio), in Twilio's envelope. @param {URL} url */
    tollFreeList(url) {
      state.requests++;
      return [
        200,
        {
          verifications: tollFree.map((v) => ({
            sid: v.sid,
            account_sid: accountSid,
            tollfree_phone_number_sid: incomingNumbers.get(v.number),
            status: v.status,
            rejection_reason: v.rejectionReason,
            business_name: "Helio test business",
            url: `https://messaging.twilio.com/v1/Tollfree/Verifications/${v.sid}`,
          })),
          meta: messagingMeta(url, "verifications"),
        },
      ];
    },
    get lookups() {
      return state.lookups;
    },
    /** @param {Record<string, string | null>} types */
    setLineTypes(types) {
      for (const [phone, type] of Object.entries(types)) lineTypes.set(phone, type);
    },
    /**
     * Lookup v2 (lookups.twilio.com at Twilio): the number's line_type_intelligence when asked for by `Fields`, in
     * Twilio's shape; a number that is not E.164 is Twilio's 404 (error 20404). @param {URL} url
     */
    lookup(url) {
      state.requests++;
      state.lookups++;
      // An injected failure (fail-next) answers a lookup as it would a send.
      const failure = failures.take();
      if (failure) return [failure.status || 503, twilioError(failure.status || 503, failure.code, failure.message)];
      const phone = decodeURIComponent(url.pathname.slice("/v2/PhoneNumbers/".length));
      if (!/^\+[1-9]\d{6,14}$/.test(phone)) return [404, twilioError(404, 20404)];
      const fields = (url.searchParams.get("Fields") ?? "").split(",");
      const type = lineTypes.has(phone) ? lineTypes.get(phone) : "mobile";
      return [
        200,
        {
          calling_country_code: "1",
          country_code: "US",
          phone_number: phone,
          national_format: phone,
          valid: true,
          validation_errors: [],
          caller_name: null,
          line_type_intelligence: fields.includes("line_type_intelligence")
            ? {
                mobile_country_code: "310",
                mobile_network_code: "456",
                carrier_name: type === "landline" ? "Example Telephone Co - ILEC" : "Example Wireless",
                type,
                error_code: type === null ? 60601 : null,
              }
            : null,
          url: `https://lookups.twilio.com/v2/PhoneNumbers/${encodeURIComponent(phone)}`,
        },
      ];
    },
    /**
     * The Messaging API's lists (messaging.twilio.com at Twilio): /v1/Services, and a service's PhoneNumbers and
     * Compliance/Usa2p, in Twilio's envelope (the list under its key, `meta` beside it). @param {URL} url
     */
    messagingList(url) {
      state.requests++;
      const meta = (key) => messagingMeta(url, key);
      if (url.pathname === "/v1/Services")
        return [
          200,
          {
            services: [...services].map((sid) => ({
              sid,
              account_sid: accountSid,
              friendly_name: a2p.get(sid)?.name ?? `Service ${sid.slice(-4)}`,
              url: `https://messaging.twilio.com/v1/Services/${sid}`,
            })),
            meta: meta("services"),
          },
        ];
      const m = url.pathname.match(/^\/v1\/Services\/([^/]+)\/(PhoneNumbers|Compliance\/Usa2p)$/);
      if (!m || !services.has(m[1]))
        return [404, twilioError(404, 20404, `The requested resource ${url.pathname.slice(3)} was not found`)];
      const svc = a2p.get(m[1]) ?? { numbers: [], campaigns: [] };
      if (m[2] === "PhoneNumbers")
        return [
          200,
          {
            phone_numbers: svc.numbers.map((n) => ({
              sid: "PN" + randomHex(16),
              account_sid: accountSid,
              service_sid: m[1],
              phone_number: n,
              country_code: "US",
              capabilities: ["SMS", "MMS"],
            })),
            meta: meta("phone_numbers"),
          },
        ];
      return [
        200,
        {
          compliance: svc.campaigns.map((c) => ({
            sid: c.sid,
            account_sid: accountSid,
            messaging_service_sid: m[1],
            brand_registration_sid: "BN" + "0".repeat(32),
            us_app_to_person_usecase: c.useCase,
            campaign_status: c.status,
          })),
          meta: meta("compliance"),
        },
      ];
    },
    /** GET /v1/Services/:sid (the Messaging API, messaging.twilio.com at Twilio). @param {string} sid */
    service(sid) {
      state.requests++;
      if (!services.has(sid))
        return [404, twilioError(404, 20404, `The requested resource /Services/${sid} was not found`)];
      return [
        200,
        {
          account_sid: accountSid,
          sid,
          friendly_name: `Service ${sid.slice(-4)}`,
          url: `https://messaging.twilio.com/v1/Services/${sid}`,
        },
      ];
    },
    reset() {
      incomingNumbers.clear();
      services.clear();
      a2p.clear();
      tollFree.length = 0;
      lineTypes.clear();
      state.lookups = 0;
      calls.length = 0;
      messages.clear();
      meta.clear();
      failures.clear();
      state.delayMs = 0;
      state.requests = 0;
      restoreNumberSets();
    },
  };
}

/**
 * @param {{ accountSid: string, authToken: string, port?: number, invalidNumbers?: string[],
 *   unsubscribedNumbers?: string[] }} options
 */
export async function startFakeTwilio(options) {
  /** @type {Map<string, ReturnType<typeof createAccount>>} account by expected Authorization header */
  const byAuth = new Map();
  /** @type {Map<string, ReturnType<typeof createAccount>>} */
  const bySid = new Map();
  /** @type {Array<{ path: string, headers: Record<string, string | string[] | undefined>, body: string, params: Record<string, string>, at: number }>} */
  const sink = [];

  /** @param {string} [accountSid] @param {string} [authToken] */
  function addAccount(accountSid = "AC" + randomHex(16), authToken = randomHex(16)) {
    const account = createAccount(accountSid, authToken, options);
    byAuth.set("Basic " + Buffer.from(`${accountSid}:${authToken}`).toString("base64"), account);
    bySid.set(accountSid, account);
    return account;
  }
  const main = addAccount(options.accountSid, options.authToken);

  // Inbound MMS media (decision 057), as Twilio serves it with "Enforce HTTP Auth on Media URLs": the file at
  // /2010-04-01/Accounts/AC…/Messages/MM…/Media/ME…, only to that account's Basic credentials.
  /** @type {Map<string, { accountSid: string, bytes: Buffer, contentType: string }>} */
  const media = new Map();
  /** Stores a file for `accountSid`'s inbound message and returns the URL a webhook would name. */
  function addMedia(bytes, contentType, accountSid = main.accountSid) {
    const path = `/2010-04-01/Accounts/${accountSid}/Messages/MM${randomHex(16)}/Media/ME${randomHex(16)}`;
    media.set(path, { accountSid, bytes: Buffer.from(bytes), contentType });
    return srv.url + path;
  }

  async function handleControl(req, res, url) {
    const path = url.pathname.slice("/__control".length);
    const json = req.method === "POST" ? JSON.parse((await readBody(req)) || "{}") : {};
    const post = req.method === "POST";
    if (path === "/health") return sendJson(res, 200, { ok: true, accountSid: main.accountSid });
    if (path === "/accounts" && post) {
      const a = addAccount(json.accountSid, json.authToken);
      return sendJson(res, 201, { accountSid: a.accountSid, authToken: a.authToken });
    }
    if (path === "/sink") {
      const prefix = url.searchParams.get("prefix") ?? "";
      return sendJson(res, 200, { requests: sink.filter((r) => r.path.startsWith(prefix)) });
    }
    const sid = url.searchParams.get("account");
    const account = sid ? bySid.get(sid) : main;
    if (!account) return sendJson(res, 404, { message: `fake Twilio: unknown account ${sid}` });
    if (path === "/reset" && post && account === main) sink.length = 0;
    if (answerScopeControl(res, { path, post, json, scope: account, srv })) return;
    if (path === "/messages") return sendJson(res, 200, { messages: [...account.messages.values()] });
    if (path.startsWith("/messages/")) {
      const m = account.messages.get(path.slice("/messages/".length));
      return m ? sendJson(res, 200, m) : sendJson(res, 404, { message: "no such message" });
    }
    if (path === "/media" && post)
      return sendJson(res, 201, {
        url: addMedia(Buffer.from(String(json.base64 ?? ""), "base64"), String(json.contentType), account.accountSid),
      });
    if (path === "/unsubscribed" && post)
      return (account.addUnsubscribed(json.to, json.from), sendJson(res, 200, { ok: true }));
    if (path === "/incoming-numbers" && post) {
      account.addIncomingNumbers(Array.isArray(json.numbers) ? json.numbers.map(String) : []);
      return sendJson(res, 200, { ok: true });
    }
    if (path === "/toll-free" && post) {
      account.setTollFree(Array.isArray(json.verifications) ? json.verifications : []);
      return sendJson(res, 200, { ok: true });
    }
    if (path === "/lookups") return sendJson(res, 200, { lookups: account.lookups });
    if (path === "/line-types" && post) {
      account.setLineTypes(json.types && typeof json.types === "object" ? json.types : {});
      return sendJson(res, 200, { ok: true });
    }
    if (path === "/a2p" && post) {
      account.setA2p(Array.isArray(json.services) ? json.services : []);
      return sendJson(res, 200, { ok: true });
    }
    if (path === "/number-error" && post) {
      account.setNumberError(json.to, json.code, { message: json.message, status: json.status });
      return sendJson(res, 200, { ok: true });
    }
    if (path === "/status-callback" && post) {
      try {
        return sendJson(res, 200, await account.sendStatusCallback(json.sid, json.status, json));
      } catch (err) {
        return sendJson(res, 400, { message: String(err?.message ?? err) });
      }
    }
    return sendJson(res, 404, { message: `unknown control endpoint ${req.method} ${url.pathname}` });
  }

  async function handler(req, res) {
    const receivedAt = Date.now();
    const url = new URL(req.url ?? "/", "http://127.0.0.1");
    if (url.pathname.startsWith("/__control/")) return handleControl(req, res, url);
    const body = await readBody(req);
    if (url.pathname.startsWith("/__sink/")) {
      sink.push({
        path: url.pathname + url.search,
        headers: req.headers,
        body,
        params: Object.fromEntries(new URLSearchParams(body)),
        at: Date.now(),
      });
      res.writeHead(204).end();
      return;
    }
    const file = req.method === "GET" ? media.get(url.pathname) : undefined;
    if (file) {
      const account = byAuth.get(req.headers.authorization ?? "");
      if (!account || account.accountSid !== file.accountSid)
        return sendJson(res, 401, twilioError(401), { "WWW-Authenticate": 'Basic realm="Twilio API"' });
      res.writeHead(200, { "Content-Type": file.contentType, "Content-Length": file.bytes.length }).end(file.bytes);
      return;
    }
    if (
      req.method === "GET" &&
      /^\/v1\/Services(?:$|\/[^/]+\/(?:PhoneNumbers|Compliance\/Usa2p)$)/.test(url.pathname)
    ) {
      const account = byAuth.get(req.headers.authorization ?? "");
      if (!account) return sendJson(res, 401, twilioError(401), { "WWW-Authenticate": 'Basic realm="Twilio API"' });
      const [status, json] = account.messagingList(url);
      return sendJson(res, status, json);
    }
    if (req.method === "GET" && url.pathname === "/v1/Tollfree/Verifications") {
      const account = byAuth.get(req.headers.authorization ?? "");
      if (!account) return sendJson(res, 401, twilioError(401), { "WWW-Authenticate": 'Basic realm="Twilio API"' });
      const [status, json] = account.tollFreeList(url);
      return sendJson(res, status, json);
    }
    if (req.method === "GET" && url.pathname.startsWith("/v2/PhoneNumbers/")) {
      const account = byAuth.get(req.headers.authorization ?? "");
      if (!account) return sendJson(res, 401, twilioError(401), { "WWW-Authenticate": 'Basic realm="Twilio API"' });
      const [status, json] = account.lookup(url);
      return sendJson(res, status, json);
    }
    const service = req.method === "GET" ? url.pathname.match(/^\/v1\/Services\/([^/]+)$/) : null;
    if (service) {
      const account = byAuth.get(req.headers.authorization ?? "");
      if (!account) return sendJson(res, 401, twilioError(401), { "WWW-Authenticate": 'Basic realm="Twilio API"' });
      const [status, json] = account.service(service[1]);
      return sendJson(res, status, json);
    }
    const match = url.pathname.match(
      /^\/2010-04-01\/Accounts\/([^/]+)\/(?:Messages(?:\/(SM[0-9a-f]{32}))?|(IncomingPhoneNumbers))\.json$/,
    );
    if (!match)
      return sendJson(res, 404, twilioError(404, 20404, `The requested resource ${url.pathname} was not found`));
    const account = byAuth.get(req.headers.authorization ?? "");
    if (!account) return sendJson(res, 401, twilioError(401), { "WWW-Authenticate": 'Basic realm="Twilio API"' });
    return account.handleApi(req, res, url, match, body, receivedAt);
  }

  const srv = await listen(handler, options.port ?? 0);

  // The top-level methods act on the main account (options.accountSid).
  return {
    url: srv.url,
    port: srv.port,
    accountSid: main.accountSid,
    authToken: main.authToken,
    calls: main.calls,
    messages: main.messages,
    sink,
    addMedia,
    failNext: main.failNext,
    setDelay: main.setDelay,
    addInvalid: main.addInvalid,
    addUnsubscribed: main.addUnsubscribed,
    setNumberError: main.setNumberError,
    addIncomingNumbers: main.addIncomingNumbers,
    setA2p: main.setA2p,
    sendStatusCallback: main.sendStatusCallback,
    reset() {
      main.reset();
      sink.length = 0;
    },
    /** An extra isolated account on the same server. */
    createAccount: (/** @type {{ accountSid?: string, authToken?: string }} */ o = {}) =>
      addAccount(o.accountSid, o.authToken),
    /**
     * Forgets an extra account and everything it recorded (a long benchmark makes one per run: kept, their records
     * grow this process's heap and its garbage collection slows every later answer).
     */
    removeAccount(/** @type {string} */ accountSid) {
      const account = bySid.get(accountSid);
      if (!account || account === main) return;
      bySid.delete(accountSid);
      for (const [auth, a] of byAuth) if (a === account) byAuth.delete(auth);
    },
    /** Connection counts, to check that a client reuses connections. */
    connectionStats: () => srv.connectionStats(),
    stop: () => srv.stop(),
  };
}
