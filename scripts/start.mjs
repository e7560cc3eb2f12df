#!/usr/bin/env node
// `npm start`: build, migrate the local D1, make sure a superuser exists, serve on
// http://127.0.0.1:8787 with wrangler dev (workerd, offline) and tick the Cron Trigger every minute,
// because wrangler dev never fires Cron Triggers by itself.
import { execFileSync, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { migrate, offlineEnv } from "./lib/d1.mjs";
import { resolveLocalVars } from "./lib/local-vars.mjs";
import { ADMIN, createUser } from "./lib/users.mjs";

const root = fileURLToPath(new URL("..", import.meta.url));
const PORT = Number(process.env.PORT ?? 8787);
const HOST = "127.0.0.1";
const CRON = "* * * * *";
const bin = (p) => fileURLToPath(new URL(`../node_modules/${p}`, import.meta.url));

// 1. Local secrets: .dev.vars from the example, with a fresh random SESSION_SECRET.
const devVars = new URL("../.dev.vars", import.meta.url);
if (!existsSync(devVars)) {
  const example = readFileSync(new URL("../.dev.vars.example", import.meta.url), "utf8");
  writeFileSync(devVars, example.replace(/^SESSION_SECRET=.*$/m, `SESSION_SECRET=${randomBytes(32).toString("hex")}`));
  console.log("Created .dev.vars (local settings; no provider credentials → local outbox).");
}

// Settings wrangler.toml does not carry (decision 018), resolved by scripts/lib/local-vars.mjs: the environment,
// then a public URL in .dev.vars, then this server's own address. `--var` beats .dev.vars.
const {
  vars: localVars,
  publicBaseUrl,
  loopback,
} = resolveLocalVars({ env: process.env, devVarsText: readFileSync(devVars, "utf8"), host: HOST, port: PORT });
const varArgs = Object.entries(localVars).flatMap(([name, value]) => ["--var", `${name}:${value}`]);

// 2. Build with the classic Remix compiler.
execFileSync(process.execPath, [bin("@remix-run/dev/dist/cli.js"), "build"], {
  cwd: root,
  stdio: "inherit",
  env: offlineEnv,
});

// 3. Local D1 migrations.
migrate();

// 4. A superuser to sign in with.
const { created } = await createUser(ADMIN, { onConflict: "ignore" });

// 5. Serve.
const wrangler = spawn(
  process.execPath,
  [
    bin("wrangler/bin/wrangler.js"),
    "dev",
    "--local",
    "--ip",
    HOST,
    "--port",
    String(PORT),
    "--test-scheduled",
    "--log-level",
    "warn",
    "--show-interactive-dev-session=false",
    ...varArgs,
  ],
  { cwd: root, stdio: ["inherit", "pipe", "pipe"], env: offlineEnv },
);
// Wrangler warns that the AI binding "may incur usage charges": under --local it never reaches Cloudflare (the
// assistant falls back to OPENAI_BASE_URL or the offline composer), so the warning would only alarm a newcomer.
const AI_WARNING = /AI bindings always access remote resources/;
for (const [from, to] of [
  [wrangler.stdout, process.stdout],
  [wrangler.stderr, process.stderr],
]) {
  let buffered = "";
  from.on("data", (chunk) => {
    buffered += chunk.toString();
    const lines = buffered.split("\n");
    buffered = lines.pop();
    for (const line of lines) if (!AI_WARNING.test(line)) to.write(line + "\n");
  });
  from.on("end", () => buffered && !AI_WARNING.test(buffered) && to.write(buffered));
}
const stop = () => wrangler.kill("SIGINT");
process.on("SIGINT", stop);
process.on("SIGTERM", stop);
wrangler.on("exit", (code) => process.exit(code ?? 0));

// 6. Announce once it answers, then tick the scheduled handler at the top of every minute.
const base = `http://${HOST}:${PORT}`;
for (let i = 0; i < 120; i++) {
  try {
    await fetch(base + "/login");
    break;
  } catch {
    await new Promise((r) => setTimeout(r, 500));
  }
}
console.log(`
  Helio is running on ${base}   (PORT=… npm start for another port)
  Links in messages and Twilio callbacks use ${publicBaseUrl}${loopback ? " (PUBLIC_BASE_URL=https://… npm start for a tunnel)" : ""}
  AI: Workers AI does not run offline; the Idea Generator uses OPENAI_BASE_URL if set, else the offline composer.
  Superuser: ${ADMIN.email} / ${ADMIN.password}${created ? "" : "  (account already existed: its password was left as it was)"}
  Cron: ticking the scheduled handler every minute (${CRON}).
`);
const tick = async () => {
  try {
    await fetch(`${base}/__scheduled?cron=${encodeURIComponent(CRON)}`);
  } catch (err) {
    console.warn("cron tick failed:", err.message);
  }
};
const untilNextMinute = 60_000 - (Date.now() % 60_000);
setTimeout(() => {
  tick();
  setInterval(tick, 60_000);
}, untilNextMinute);
