// The one Twilio send of the ceiling Workers (bench/bare-consumer.js, bench/worker-post-loop.js): a form POST to the
// (fake) account their bindings name (ceilings.mjs `twilioBindings`). No imports, and .mjs: Miniflare follows the
// Workers' import of it as an ES module (a .js one it would read as CommonJS).

/** `(to, body) => fetch(…)` posting one SMS from TWILIO_FROM_NUMBER. */
export function twilioPoster(env) {
  const url = `${env.TWILIO_API_BASE}/2010-04-01/Accounts/${env.TWILIO_ACCOUNT_SID}/Messages.json`;
  const authorization = "Basic " + btoa(`${env.TWILIO_ACCOUNT_SID}:${env.TWILIO_AUTH_TOKEN}`);
  return (to, body) =>
    fetch(url, {
      method: "POST",
      headers: {
        Authorization: authorization,
        "Content-Type": "application/x-www-form-urlencoded",
        Accept: "application/json",
      },
      body: new URLSearchParams({ To: to, From: env.TWILIO_FROM_NUMBER, Body: body }).toString(),
    });
}
