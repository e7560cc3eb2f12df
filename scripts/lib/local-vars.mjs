// What `npm start` passes to wrangler dev with --var (which beats .dev.vars): the settings wrangler.toml does not
// carry because they belong to one deployment (decision 018).

const LOOPBACK = new Set(["127.0.0.1", "localhost", "[::1]"]);
export function isLoopback(url) {
  try {
    return LOOPBACK.has(new URL(url).hostname);
  } catch {
    return false;
  }
}

/** A NAME=value line of a dotenv file (.dev.vars), or undefined when absent or empty. */
export function dotenvValue(text, name) {
  return text.match(new RegExp(`^${name}=(\\S+)`, "m"))?.[1];
}

/**
 * PUBLIC_BASE_URL, in order: the environment (`PUBLIC_BASE_URL=https://….trycloudflare.com npm start`), a public URL
 * written in .dev.vars, else this server's own address — so `PORT=9000 npm start` links to :9000, not to the :8787
 * that .dev.vars.example carries. SALES_ALERT_EMAIL: the environment, .dev.vars, else a local address.
 */
export function resolveLocalVars({ env, devVarsText, host, port }) {
  const fromFile = dotenvValue(devVarsText, "PUBLIC_BASE_URL");
  const publicBaseUrl =
    env.PUBLIC_BASE_URL || (fromFile && !isLoopback(fromFile) ? fromFile : `http://${host}:${port}`);
  const salesAlertEmail =
    env.SALES_ALERT_EMAIL || dotenvValue(devVarsText, "SALES_ALERT_EMAIL") || "sales-alerts@helio.local";
  // Workers AI cannot run under --local: leaving it in the chain recorded its failure as the Analytics card's red
  // "Last error" on every AI call (issue 24), for a fallback that is expected. AI_DISABLE_WORKERS_AI=0 keeps it.
  const disableWorkersAi = env.AI_DISABLE_WORKERS_AI || "1";
  return {
    vars: {
      PUBLIC_BASE_URL: publicBaseUrl,
      SALES_ALERT_EMAIL: salesAlertEmail,
      AI_DISABLE_WORKERS_AI: disableWorkersAi,
    },
    publicBaseUrl,
    loopback: isLoopback(publicBaseUrl),
  };
}
