// A webhook receiver on 127.0.0.1 that checks Helio's signatures the way a customer's endpoint would (decision 036):
// `Helio-Signature: t=<unix>,v1=<hex HMAC-SHA256 of "t.body">`, a timestamp within 5 minutes, a constant-time
// compare. Each endpoint (`/hooks/<id>`) has its own secret, recorded deliveries and injected failures.
// Control API: POST /__control/endpoints → { id, url }; POST /__control/endpoints/<id>/secret { secret };
// POST /__control/endpoints/<id>/fail-next { n, status (0 = drop the connection), delayMs (a slow answer) };
// GET /__control/endpoints/<id>/deliveries.
import { createHmac, timingSafeEqual } from "node:crypto";
import { listen, randomHex, readBody, sendJson, sleep } from "./fake-http.mjs";

export const TOLERANCE_SECONDS = 300;

/** Checks a `Helio-Signature` header against the body; returns null when good, else why not. */
export function verifySignature(header, body, secret, nowSeconds = Math.floor(Date.now() / 1000)) {
  if (!header) return "missing signature";
  const parts = Object.fromEntries(
    header.split(",").map((p) => {
      const i = p.indexOf("=");
      return [p.slice(0, i).trim(), p.slice(i + 1).trim()];
    }),
  );
  const t = Number(parts.t);
  if (!Number.isInteger(t)) return "no timestamp";
  if (Math.abs(nowSeconds - t) > TOLERANCE_SECONDS) return "timestamp outside the tolerance";
  const want = createHmac("sha256", secret).update(`${t}.${body}`).digest();
  const got = Buffer.from(parts.v1 ?? "", "hex");
  if (got.length !== want.length || !timingSafeEqual(got, want)) return "bad signature";
  return null;
}

export async function startFakeWebhookReceiver() {
  /** @type {Map<string, { secret: string | null, deliveries: any[], failures: { status: number, delayMs: number }[] }>} */
  const endpoints = new Map();
  const srv = await listen(async (req, res) => {
    const url = new URL(req.url ?? "/", "http://x");
    const body = await readBody(req);
    const path = url.pathname;
    if (path === "/__control/endpoints" && req.method === "POST") {
      const id = randomHex(8);
      endpoints.set(id, { secret: null, deliveries: [], failures: [] });
      return sendJson(res, 200, { id, url: `${srv.url}/hooks/${id}` });
    }
    const control = /^\/__control\/endpoints\/([0-9a-f]+)\/([a-z-]+)$/.exec(path);
    if (control) {
      const ep = endpoints.get(control[1]);
      if (!ep) return sendJson(res, 404, { message: "no such endpoint" });
      const json = body ? JSON.parse(body) : {};
      if (control[2] === "secret") ep.secret = json.secret;
      else if (control[2] === "fail-next")
        for (let i = 0; i < (json.n ?? 1); i++)
          ep.failures.push({ status: json.status ?? 500, delayMs: json.delayMs ?? 0 });
      else if (control[2] === "deliveries") return sendJson(res, 200, { deliveries: ep.deliveries });
      else return sendJson(res, 404, { message: "unknown control" });
      return sendJson(res, 200, { ok: true });
    }
    const hook = /^\/hooks\/([0-9a-f]+)$/.exec(path);
    const ep = hook && endpoints.get(hook[1]);
    if (!ep || req.method !== "POST") return sendJson(res, 404, { message: "not found" });
    const failure = ep.failures.shift();
    const signature = req.headers["helio-signature"] ?? null;
    const problem = ep.secret ? verifySignature(String(signature), body, ep.secret) : "no secret set";
    const record = {
      at: Date.now(),
      eventId: req.headers["helio-event-id"] ?? null,
      signature,
      contentType: req.headers["content-type"] ?? null,
      body,
      verified: problem === null,
      problem,
      answered: failure ? failure.status : problem ? 400 : 200,
    };
    ep.deliveries.push(record);
    if (failure?.delayMs) await sleep(failure.delayMs);
    if (failure && failure.status === 0) return void req.socket.destroy();
    if (failure) return sendJson(res, failure.status, { message: "failing on purpose" });
    if (problem) return sendJson(res, 400, { message: problem });
    return sendJson(res, 200, { ok: true });
  });
  return { url: srv.url, endpoints, stop: () => srv.stop() };
}
