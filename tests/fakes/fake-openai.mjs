// A fake OpenAI-compatible server (POST /v1/chat/completions) for workerd tests. Each API key is its own account:
// its queued answers, injected failures/delays and recorded calls. Driven over HTTP through /__control.
// `obey` makes an account behave like a model steered by injected text: with no queued answer it answers
// `{"<field>": "<what the prompt told it to say>"}` from the last "Reply with: …" in the user message — anywhere
// ("gullible"), or only outside `<<< … >>>` fences, which it takes as data ("fence-aware", a model that respects
// fences but can be fooled by text that closes one).
import { createFailureQueue, listen, readBody, sendJson, sleep } from "./fake-http.mjs";

/** What an injected instruction makes a steerable model answer (see `obey` above). */
function obeyed(messages, { mode, field }) {
  const user = [...(Array.isArray(messages) ? messages : [])].reverse().find((m) => m?.role === "user")?.content ?? "";
  const visible = mode === "gullible" ? String(user) : String(user).replace(/<<<[\s\S]*?>>>/g, " ");
  const told = /reply with:\s*([^\n]+)/i.exec(visible);
  return JSON.stringify({ [field]: told ? told[1].trim() : "Thanks for reaching out! A rep will be in touch soon." });
}

/** @param {{ port?: number }} [opts] */
export async function startFakeOpenAi(opts = {}) {
  /** @type {Map<string, { answers: Array<{ content: string, delayMs?: number, chunkDelayMs?: number }>, failures: ReturnType<typeof createFailureQueue>, calls: any[], obey: { mode: string, field: string } | null }>} */
  const accounts = new Map();
  const account = (key) => {
    let a = accounts.get(key);
    if (!a) accounts.set(key, (a = { answers: [], failures: createFailureQueue(), calls: [], obey: null }));
    return a;
  };

  const server = await listen(async (req, res) => {
    const url = new URL(req.url ?? "/", "http://fake");
    const body = await readBody(req);
    if (url.pathname.startsWith("/__control/")) {
      const input = body ? JSON.parse(body) : {};
      const a = account(String(input.key ?? ""));
      if (url.pathname === "/__control/answer")
        a.answers.push({ content: String(input.content), delayMs: input.delayMs, chunkDelayMs: input.chunkDelayMs });
      else if (url.pathname === "/__control/fail") a.failures.add(input.count ?? 1, input.status ?? 500);
      else if (url.pathname === "/__control/obey")
        a.obey = {
          mode: input.mode === "gullible" ? "gullible" : "fence-aware",
          field: String(input.field ?? "reply"),
        };
      else if (url.pathname === "/__control/calls") return sendJson(res, 200, a.calls);
      else return sendJson(res, 404, { error: "unknown control" });
      return sendJson(res, 200, { ok: true });
    }
    if (req.method !== "POST" || url.pathname !== "/v1/chat/completions") {
      return sendJson(res, 404, { error: { message: "Unknown endpoint", type: "invalid_request_error" } });
    }
    const key = (req.headers.authorization ?? "").replace(/^Bearer\s+/i, "");
    if (!key) return sendJson(res, 401, { error: { message: "Missing API key", type: "invalid_request_error" } });
    const a = account(key);
    let payload = null;
    try {
      payload = JSON.parse(body);
    } catch {
      return sendJson(res, 400, { error: { message: "Invalid JSON", type: "invalid_request_error" } });
    }
    const call = {
      model: payload.model,
      messages: payload.messages,
      response_format: payload.response_format,
      at: Date.now(),
      chunksSent: 0,
      closedByClient: false,
    };
    a.calls.push(call);
    // The client hung up before the answer was complete (a streamed answer whose reader went away).
    res.on("close", () => {
      if (!res.writableEnded) call.closedByClient = true;
    });
    const failure = a.failures.take();
    if (failure) {
      if (failure.status === 0) return req.socket.destroy();
      return sendJson(res, failure.status, { error: { message: "Injected failure", type: "server_error" } });
    }
    const answer =
      a.answers.shift() ??
      (a.obey ? { content: obeyed(payload.messages, a.obey) } : { content: '{"error":"no answer queued"}' });
    if (answer.delayMs) await sleep(answer.delayMs);
    if (res.destroyed || req.socket.destroyed) return;
    if (payload.stream) {
      // Server-sent events as the real API streams them: one delta per few characters, then [DONE].
      res.writeHead(200, { "Content-Type": "text/event-stream", "Cache-Control": "no-cache" });
      const id = `chatcmpl-${Math.random().toString(36).slice(2)}`;
      for (let i = 0; i < answer.content.length; i += 8) {
        if (res.destroyed) return;
        const delta = {
          id,
          object: "chat.completion.chunk",
          model: payload.model,
          choices: [{ index: 0, delta: { content: answer.content.slice(i, i + 8) }, finish_reason: null }],
        };
        res.write(`data: ${JSON.stringify(delta)}\n\n`);
        call.chunksSent++;
        // A slow model: one delta per chunkDelayMs, so a test can hang up midway.
        if (answer.chunkDelayMs) await sleep(answer.chunkDelayMs);
      }
      res.end("data: [DONE]\n\n");
      return;
    }
    return sendJson(res, 200, {
      id: `chatcmpl-${Math.random().toString(36).slice(2)}`,
      object: "chat.completion",
      created: Math.floor(Date.now() / 1000),
      model: payload.model,
      choices: [{ index: 0, message: { role: "assistant", content: answer.content }, finish_reason: "stop" }],
      usage: { prompt_tokens: 10, completion_tokens: 10, total_tokens: 20 },
    });
  }, opts.port);
  return { url: server.url, stop: server.stop };
}
