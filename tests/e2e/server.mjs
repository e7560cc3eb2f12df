// Starts a throw-away `wrangler dev` (real workerd, local D1 in its own folder) for browser tests.
import { execFileSync, spawn } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { migrate, offlineEnv } from "../../scripts/lib/d1.mjs";
import { createUser } from "../../scripts/lib/users.mjs";
import { d1 } from "../../scripts/lib/d1.mjs";
import { stopProcessGroup } from "../../scripts/lib/process-group.mjs";

const root = fileURLToPath(new URL("../..", import.meta.url));
const bin = (p) => join(root, "node_modules", p);

export const E2E_USERS = {
  admin: { email: "admin@e2e.test", password: "admin-password-1", role: "superuser", first: "Avery", last: "Admin" },
  user: { email: "rep@e2e.test", password: "rep-password-1", role: "user", first: "Riley", last: "Rep" },
  // A second rep: whose contacts the first one does not see (roles, decision 048).
  repB: { email: "rep-b@e2e.test", password: "rep-b-password-1", role: "user", first: "Blair", last: "Rep" },
  inactive: { email: "gone@e2e.test", password: "gone-password-1", role: "user", first: "Gone", last: "Away" },
  // two-factor.test.mjs enrols these, one per JS mode (enrolment changes the account for good).
  twoFactorJsOn: { email: "tfa-on@e2e.test", password: "tfa-on-password", role: "user", first: "Tia", last: "On" },
  twoFactorJsOff: { email: "tfa-off@e2e.test", password: "tfa-off-password", role: "user", first: "Tom", last: "Off" },
};

// E2E_PORT / E2E_INSPECTOR_PORT let two checkouts run their browser tests side by side.
export async function startServer({
  port = Number(process.env.E2E_PORT ?? 8799),
  inspectorPort = Number(process.env.E2E_INSPECTOR_PORT ?? 9239),
  vars = {},
} = {}) {
  if (!existsSync(join(root, "build/server/index.js"))) {
    execFileSync(process.execPath, [bin("@remix-run/dev/dist/cli.js"), "build"], {
      cwd: root,
      stdio: "inherit",
      env: offlineEnv,
    });
  }
  const persistTo = mkdtempSync(join(tmpdir(), "helio-e2e-"));
  migrate({ persistTo });
  // The rep is made by the real administrator CLI (npm run user:create / user:deactivate), the others directly.
  const cli = (script, args) =>
    execFileSync(process.execPath, [join(root, "scripts", script), ...args, "--persist-to", persistTo], {
      cwd: root,
      env: offlineEnv,
      stdio: "pipe",
    });
  const rep = E2E_USERS.user;
  cli("user-create.mjs", [
    "--email",
    rep.email,
    "--password",
    rep.password,
    "--role",
    rep.role,
    "--first",
    rep.first,
    "--last",
    rep.last,
  ]);
  for (const u of [
    E2E_USERS.admin,
    E2E_USERS.repB,
    E2E_USERS.inactive,
    E2E_USERS.twoFactorJsOn,
    E2E_USERS.twoFactorJsOff,
  ])
    await createUser(u, { persistTo });
  cli("user-set-active.mjs", ["deactivate", "--email", E2E_USERS.inactive.email]);
  // Test alerts are capped at 5 per user per hour: the suite runs more than that as the rep, and a file run again
  // after a stall (run.mjs) would meet the cap instead of what it tests. The cap itself has its own tests.
  d1(`INSERT INTO org_settings (key, value, updated_at) VALUES ('cap.testAlertPerUser', '100', ${Date.now()})`, {
    persistTo,
  });

  const base = `http://127.0.0.1:${port}`;
  const allVars = {
    SESSION_SECRET: "e2e-session-secret",
    // wrangler.toml carries neither (decision 018): loopback is right here, the local outbox sends nothing.
    PUBLIC_BASE_URL: base,
    SALES_ALERT_EMAIL: "sales-alerts@helio.local",
    // Outbound webhooks go to the loopback fake receiver (decision 036).
    WEBHOOKS_ALLOW_PRIVATE: "1",
    // Never let a developer's .dev.vars credentials leak into tests: local outbox unless a test says otherwise.
    TWILIO_ACCOUNT_SID: "",
    TWILIO_AUTH_TOKEN: "",
    SENDGRID_API_KEY: "",
    ...vars,
  };
  const args = [
    bin("wrangler/bin/wrangler.js"),
    "dev",
    "--local",
    "--ip",
    "127.0.0.1",
    "--port",
    String(port),
    "--inspector-port",
    String(inspectorPort),
    "--persist-to",
    persistTo,
    "--test-scheduled",
    "--log-level",
    "warn",
    "--show-interactive-dev-session=false",
  ];
  for (const [k, v] of Object.entries(allVars)) args.push("--var", `${k}:${v}`);
  const child = spawn(process.execPath, args, {
    cwd: root,
    env: offlineEnv,
    stdio: ["ignore", "inherit", "inherit"],
    detached: true,
  });

  const deadline = Date.now() + 60_000;
  for (;;) {
    try {
      const r = await fetch(base + "/login");
      if (r.ok) break;
    } catch {}
    if (Date.now() > deadline || child.exitCode !== null) throw new Error("wrangler dev did not start");
    await new Promise((r) => setTimeout(r, 300));
  }
  return {
    base,
    persistTo,
    async stop() {
      await stopProcessGroup(child, "SIGTERM", 500);
      rmSync(persistTo, { recursive: true, force: true });
    },
  };
}
