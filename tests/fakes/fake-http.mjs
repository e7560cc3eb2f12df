// Shared plumbing for the fake provider servers (plain Node, no app code): listening, keep-alive, body reading,
// injected failures and delays, and a clean stop that leaves no sockets behind.
import { randomBytes } from "node:crypto";
import http from "node:http";

/** @param {import("node:http").IncomingMessage} req */
export async function readBody(req) {
  const chunks = [];
  for await (const chunk of req) chunks.push(chunk);
  return Buffer.concat(chunks).toString("utf8");
}

/**
 * @param {import("node:http").ServerResponse} res
 * @param {number} status
 * @param {unknown} body
 * @param {Record<string, string>} [headers]
 */
export function sendJson(res, status, body, headers = {}) {
  const text = body === undefined ? "" : JSON.stringify(body);
  res.writeHead(status, {
    "Content-Type": "application/json; charset=utf-8",
    "Content-Length": Buffer.byteLength(text),
    ...headers,
  });
  res.end(text);
}

/** @param {number} ms */
export const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/**
 * Failure injection shared by both fakes: `failNext(n, status, opts)` makes the next n API requests fail.
 * status 0 means "drop the connection without answering" (a network error for the client).
 */
export function createFailureQueue() {
  /** @type {Array<{ status: number, retryAfter?: number | string, code?: number, message?: string }>} */
  let queue = [];
  return {
    /** @param {number} n @param {number} [status] @param {{ retryAfter?: number | string, code?: number, message?: string }} [opts] */
    add(n, status = 429, opts = {}) {
      for (let i = 0; i < n; i++) queue.push({ status, ...opts });
    },
    take() {
      return queue.shift() ?? null;
    },
    get pending() {
      return queue.length;
    },
    clear() {
      queue = [];
    },
  };
}

/**
 * Starts an HTTP server on 127.0.0.1 and returns helpers to stop it completely.
 * @param {(req: import("node:http").IncomingMessage, res: import("node:http").ServerResponse) => Promise<void>} handler
 * @param {number} [port]
 */
export async function listen(handler, port = 0) {
  const server = http.createServer((req, res) => {
    handler(req, res).catch((err) => {
      if (!res.headersSent) sendJson(res, 500, { message: String(err?.stack ?? err) });
      else res.destroy();
    });
  });
  // Clients (workerd, undici) pool connections; keep idle sockets long enough to be reused across a benchmark's
  // bursts instead of churning thousands of short connections, but not forever.
  server.keepAliveTimeout = 30_000;
  server.headersTimeout = 35_000; // must exceed keepAliveTimeout
  server.requestTimeout = 0;
  server.maxRequestsPerSocket = 0; // unlimited
  server.maxConnections = 10_000;
  /** @type {Set<import("node:net").Socket>} */
  const sockets = new Set();
  let totalConnections = 0;
  server.on("connection", (s) => {
    totalConnections++;
    sockets.add(s);
    s.on("close", () => sockets.delete(s));
  });
  await new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, "127.0.0.1", () => resolve(undefined));
  });
  const address = /** @type {import("node:net").AddressInfo} */ (server.address());
  return {
    server,
    port: address.port,
    url: `http://127.0.0.1:${address.port}`,
    sockets,
    /** Connection counts, to check that clients reuse connections. */
    connectionStats() {
      return { open: sockets.size, total: totalConnections };
    },
    async stop() {
      const closed = new Promise((resolve) => server.close(() => resolve(undefined)));
      server.closeAllConnections();
      for (const s of sockets) s.destroy();
      await closed;
    },
  };
}

/** @param {number} bytes */
export function randomHex(bytes) {
  return randomBytes(bytes).toString("hex");
}

/** RFC 2822 as Twilio writes it: "Thu, 30 Jul 2015 20:12:31 +0000". */
/** @param {Date} date */
export function rfc2822(date) {
  return date.toUTCString().replace(/GMT$/, "+0000");
}

/**
 * The control endpoints every provider fake offers on one account or key (reset, fail-next, delay, calls, invalid,
 * stats). Answers and returns true when `path` is one of them; false leaves the request to the fake's own.
 */
export function answerScopeControl(res, { path, post, json, scope, srv }) {
  const ok = () => (sendJson(res, 200, { ok: true }), true);
  if (path === "/reset" && post) return (scope.reset(), ok());
  if (path === "/fail-next" && post) {
    scope.failNext(json.n ?? 1, json.status ?? 429, json);
    return (sendJson(res, 200, { ok: true, pending: scope.pendingFailures }), true);
  }
  if (path === "/delay" && post) return (scope.setDelay(json.ms ?? 0), ok());
  if (path === "/calls") return (sendJson(res, 200, { calls: scope.calls }), true);
  if (path === "/invalid" && post) return (scope.addInvalid(json.to), ok());
  if (path === "/stats")
    return (sendJson(res, 200, { requests: scope.requests, connections: srv.connectionStats() }), true);
  return false;
}
