// A fake SendGrid v3 Mail Send API (POST /v3/mail/send) for tests and benchmarks: Bearer auth, SendGrid's request
// validation and `{ errors: [{ message, field, help }] }` bodies, 202 + X-Message-Id on success.
//
// Control API (JSON), as for the fake Twilio:
//   POST /__control/keys { apiKey? } → 201 { apiKey }: a new isolated key; the endpoints below act on the main key
//   or on ?key=… (one key per test keeps parallel test files apart).
//   GET  /__control/health, POST /__control/reset, POST /__control/fail-next { n, status, retryAfter?, message? },
//   POST /__control/delay { ms }, GET /__control/calls → { calls }, POST /__control/invalid { to } (address rejected),
//   GET  /__control/stats → { requests, connections: { open, total } }
import { randomBytes } from "node:crypto";
import { answerScopeControl, createFailureQueue, listen, readBody, sendJson, sleep } from "./fake-http.mjs";

const EMAIL = /^[^\s@<>",;]+@[^\s@<>",;]+\.[^\s@<>",;]+$/;
const BASE64 = /^[A-Za-z0-9+/]+={0,2}$/;
const HELP = "http://sendgrid.com/docs/API_Reference/Web_API_v3/Mail/errors.html";

/** @param {string} message @param {string | null} [field] */
const sgError = (message, field = null) => ({
  errors: [{ message, field, help: field ? `${HELP}#message.${field}` : null }],
});

const typeName = (v) => (v === null ? "null" : Array.isArray(v) ? "array" : Number.isInteger(v) ? "integer" : typeof v);

/**
 * SendGrid's checks for the parts we use; returns an error body or null.
 * @param {any} p
 * @param {Set<string>} rejected
 */
function validate(p, rejected) {
  if (!p || typeof p !== "object") return sgError("Bad Request");
  if (!Array.isArray(p.personalizations) || p.personalizations.length === 0)
    return sgError(
      "The personalizations field is required and must have at least one personalization.",
      "personalizations",
    );
  for (const [i, pers] of p.personalizations.entries()) {
    if (!Array.isArray(pers?.to) || pers.to.length === 0)
      return sgError(
        "The to array is required for all personalization objects, and must have at least one email object with a valid email address.",
        `personalizations.${i}.to`,
      );
    for (const [j, r] of pers.to.entries()) {
      if (typeof r?.email !== "string" || !EMAIL.test(r.email) || rejected.has(r.email.toLowerCase()))
        return sgError("Does not contain a valid address.", `personalizations.${i}.to.${j}.email`);
    }
  }
  if (!p.from || typeof p.from !== "object" || !p.from.email)
    return sgError(
      "The from object must be provided for every email send. It is an object that requires the email parameter, but may also contain a name parameter.",
      "from",
    );
  if (!EMAIL.test(p.from.email)) return sgError("The from email does not contain a valid address.", "from.email");
  if (typeof p.subject !== "string" || p.subject.length === 0)
    return sgError(
      "The subject is required. You can get around this requirement if you use a template with a subject defined or if every personalization has a subject defined.",
      "subject",
    );
  if (!Array.isArray(p.content) || p.content.length === 0)
    return sgError(
      "Unless a valid template_id is provided, the content parameter is required. There must be at least one defined content block. We typically suggest both text/plain and text/html blocks are included, but only one block is required.",
      "content",
    );
  for (const [i, c] of p.content.entries()) {
    if (typeof c?.type !== "string" || c.type.length === 0)
      return sgError("The content type must be a string at least one character in length.", `content.${i}.type`);
    if (typeof c.value !== "string" || c.value.length === 0)
      return sgError("The content value must be a string at least one character in length.", `content.${i}.value`);
  }
  const types = p.content.map((c) => c.type);
  const plain = types.indexOf("text/plain");
  const html = types.indexOf("text/html");
  if (plain > 0 || (html >= 0 && plain >= 0 && html < plain) || (html > 0 && plain < 0))
    return sgError(
      "If present, text/plain and text/html may only be provided in order, followed by any other content.",
      "content",
    );
  if (p.attachments !== undefined) {
    if (!Array.isArray(p.attachments))
      return sgError(`Invalid type. Expected: array, given: ${typeName(p.attachments)}.`, "attachments");
    for (const [i, a] of p.attachments.entries()) {
      // SendGrid's rules: base64 content and a filename are required; the disposition is attachment or inline.
      if (typeof a?.content !== "string" || a.content.length === 0)
        return sgError("The attachment content is required.", `attachments.${i}.content`);
      if (!BASE64.test(a.content))
        return sgError("The attachment content must be base64 encoded.", `attachments.${i}.content`);
      if (typeof a.filename !== "string" || a.filename.length === 0)
        return sgError("The attachment filename parameter is required.", `attachments.${i}.filename`);
      if (a.disposition !== undefined && a.disposition !== "attachment" && a.disposition !== "inline")
        return sgError(
          'The disposition of your attachment can be either "inline" or "attachment".',
          `attachments.${i}.disposition`,
        );
    }
  }
  for (const field of ["headers", "custom_args"]) {
    if (p[field] === undefined) continue;
    if (typeof p[field] !== "object" || Array.isArray(p[field]) || p[field] === null)
      return sgError(`Invalid type. Expected: object, given: ${typeName(p[field])}.`, field);
    for (const [k, v] of Object.entries(p[field])) {
      if (typeof v !== "string")
        return sgError(`Invalid type. Expected: string, given: ${typeName(v)}.`, `${field}.${k}`);
    }
  }
  return null;
}

/**
 * One API key's state (calls, rejected addresses, injected failures, delay), isolated so parallel test files can
 * each use their own key on one shared server.
 * @param {string} apiKey
 */
function createKey(apiKey) {
  /**
   * @type {Array<{ to: string[], from: string | null, fromName: string | null, subject: string | null, text: string | null,
   *   html: string | null, headers: Record<string, string>, customArgs: Record<string, string>,
   *   attachments: Array<{ filename: string | null, type: string | null, disposition: string | null, content: string | null }>, at: number,
   *   contentType: string | null, httpStatus: number, messageId: string | null, payload: any }>}
   */
  const calls = [];
  /** @type {Set<string>} */
  const rejected = new Set();
  const failures = createFailureQueue();
  const state = { delayMs: 0, requests: 0 };

  /**
   * @param {import("node:http").IncomingMessage} req
   * @param {import("node:http").ServerResponse} res
   * @param {string} raw
   */
  async function handleSend(req, res, raw) {
    state.requests++;
    if (state.delayMs > 0) await sleep(state.delayMs);
    let payload = null;
    try {
      payload = JSON.parse(raw);
    } catch {
      // refused below, after being recorded
    }
    const record = (httpStatus, messageId = null) => {
      const content = Array.isArray(payload?.content) ? payload.content : [];
      calls.push({
        to: (payload?.personalizations ?? []).flatMap((p) => (p?.to ?? []).map((r) => r?.email)),
        from: payload?.from?.email ?? null,
        fromName: payload?.from?.name ?? null,
        subject: payload?.subject ?? null,
        text: content.find((c) => c?.type === "text/plain")?.value ?? null,
        html: content.find((c) => c?.type === "text/html")?.value ?? null,
        headers: payload?.headers ?? {},
        customArgs: payload?.custom_args ?? {},
        // Decoded, as a mail client would show them.
        attachments: (Array.isArray(payload?.attachments) ? payload.attachments : []).map((a) => ({
          filename: a?.filename ?? null,
          type: a?.type ?? null,
          disposition: a?.disposition ?? null,
          content: typeof a?.content === "string" ? Buffer.from(a.content, "base64").toString("utf8") : null,
        })),
        at: Date.now(),
        contentType: req.headers["content-type"] ?? null,
        httpStatus,
        messageId,
        payload,
      });
    };

    const failure = failures.take();
    if (failure) {
      record(failure.status);
      if (failure.status === 0) return void req.socket.destroy();
      /** @type {Record<string, string>} */
      const headers = {};
      if (failure.retryAfter != null) headers["Retry-After"] = String(failure.retryAfter);
      if (failure.status === 429) {
        headers["X-RateLimit-Limit"] = "600";
        headers["X-RateLimit-Remaining"] = "0";
        headers["X-RateLimit-Reset"] = String(Math.ceil(Date.now() / 1000) + (Number(failure.retryAfter) || 1));
      }
      const message =
        failure.message ??
        (failure.status === 429 ? "too many requests" : failure.status >= 500 ? "internal error" : "Bad Request");
      return sendJson(res, failure.status, sgError(message), headers);
    }

    if (!String(req.headers["content-type"] ?? "").startsWith("application/json") || payload === null) {
      record(400);
      return sendJson(res, 400, sgError("Bad Request"));
    }
    const error = validate(payload, rejected);
    if (error) {
      record(400);
      return sendJson(res, 400, error);
    }
    const messageId = randomBytes(16).toString("base64url").slice(0, 22);
    record(202, messageId);
    res.writeHead(202, { "X-Message-Id": messageId, "Content-Length": "0" });
    res.end();
  }

  return {
    apiKey,
    calls,
    handleSend,
    get requests() {
      return state.requests;
    },
    get pendingFailures() {
      return failures.pending;
    },
    /**
     * The next n requests fail with `status` (0 = connection dropped) and SendGrid error JSON.
     * @param {number} n @param {number} [status] @param {{ retryAfter?: number | string, message?: string }} [opts]
     */
    failNext(n, status = 429, opts = {}) {
      failures.add(n, status, { retryAfter: opts.retryAfter, message: opts.message });
    },
    /** @param {number} ms */
    setDelay(ms) {
      state.delayMs = ms;
    },
    /** Sends to this address are refused with "Does not contain a valid address." @param {string} to */
    addInvalid(to) {
      rejected.add(String(to).toLowerCase());
    },
    reset() {
      calls.length = 0;
      rejected.clear();
      failures.clear();
      state.delayMs = 0;
      state.requests = 0;
    },
  };
}

/** @param {{ apiKey: string, port?: number }} options */
export async function startFakeSendGrid(options) {
  /** @type {Map<string, ReturnType<typeof createKey>>} */
  const keys = new Map();
  /** @param {string} [apiKey] */
  function addKey(apiKey = "SG." + randomBytes(16).toString("base64url")) {
    const k = createKey(apiKey);
    keys.set(apiKey, k);
    return k;
  }
  const main = addKey(options.apiKey);

  async function handleControl(req, res, url) {
    const path = url.pathname.slice("/__control".length);
    const json = req.method === "POST" ? JSON.parse((await readBody(req)) || "{}") : {};
    const post = req.method === "POST";
    if (path === "/health") return sendJson(res, 200, { ok: true });
    if (path === "/keys" && post) return sendJson(res, 201, { apiKey: addKey(json.apiKey).apiKey });
    const name = url.searchParams.get("key");
    const key = name ? keys.get(name) : main;
    if (!key) return sendJson(res, 404, { message: "fake SendGrid: unknown key" });
    if (answerScopeControl(res, { path, post, json, scope: key, srv })) return;
    return sendJson(res, 404, { message: `unknown control endpoint ${req.method} ${url.pathname}` });
  }

  async function handler(req, res) {
    const url = new URL(req.url ?? "/", "http://127.0.0.1");
    if (url.pathname.startsWith("/__control/")) return handleControl(req, res, url);
    const raw = await readBody(req);
    if (url.pathname !== "/v3/mail/send") return sendJson(res, 404, sgError("Not Found"));
    if (req.method !== "POST") return sendJson(res, 405, sgError("Method Not Allowed"));
    const auth = req.headers.authorization;
    if (!auth) return sendJson(res, 401, sgError("Permission denied, wrong credentials"));
    const key = auth.startsWith("Bearer ") ? keys.get(auth.slice("Bearer ".length)) : undefined;
    if (!key) return sendJson(res, 401, sgError("The provided authorization grant is invalid, expired, or revoked"));
    return key.handleSend(req, res, raw);
  }

  const srv = await listen(handler, options.port ?? 0);

  // The top-level methods act on the main key (options.apiKey).
  return {
    url: srv.url,
    port: srv.port,
    apiKey: main.apiKey,
    calls: main.calls,
    failNext: main.failNext,
    setDelay: main.setDelay,
    addInvalid: main.addInvalid,
    reset: main.reset,
    /** An extra isolated API key on the same server. */
    createKey: (/** @type {{ apiKey?: string }} */ o = {}) => addKey(o.apiKey),
    connectionStats: () => srv.connectionStats(),
    stop: () => srv.stop(),
  };
}
