// npm start for a newcomer (issue 24, item 15): PORT and PUBLIC_BASE_URL from the environment reach the Worker, the
// example .dev.vars' :8787 does not win over PORT, and wrangler's "may incur usage charges" AI warning (untrue under
// --local) is not shown.
import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { resolveLocalVars } from "./lib/local-vars.mjs";
import { stopProcessGroup } from "./lib/process-group.mjs";

const EXAMPLE = "PUBLIC_BASE_URL=http://127.0.0.1:8787\nSALES_ALERT_EMAIL=sales-alerts@helio.local\n";

describe("resolveLocalVars", () => {
  it("takes the environment first, then a public URL from .dev.vars, then this server's own port", () => {
    const at = (env, devVarsText) =>
      resolveLocalVars({ env, devVarsText, host: "127.0.0.1", port: 9000 }).vars.PUBLIC_BASE_URL;
    expect(at({}, EXAMPLE)).toBe("http://127.0.0.1:9000");
    expect(at({}, "PUBLIC_BASE_URL=https://abc.trycloudflare.com\n")).toBe("https://abc.trycloudflare.com");
    expect(at({ PUBLIC_BASE_URL: "https://env.example" }, "PUBLIC_BASE_URL=https://abc.trycloudflare.com\n")).toBe(
      "https://env.example",
    );
    expect(at({}, "PUBLIC_BASE_URL=\n")).toBe("http://127.0.0.1:9000");
    expect(resolveLocalVars({ env: {}, devVarsText: "", host: "127.0.0.1", port: 1 }).vars.SALES_ALERT_EMAIL).toBe(
      "sales-alerts@helio.local",
    );
    // Workers AI cannot run locally: out of the chain, so its expected failure is no "Last error" on Analytics.
    expect(resolveLocalVars({ env: {}, devVarsText: "", host: "127.0.0.1", port: 1 }).vars.AI_DISABLE_WORKERS_AI).toBe(
      "1",
    );
  });
});

describe("npm start", () => {
  it("serves on PORT, trusts PUBLIC_BASE_URL from the environment, and prints no AI usage-charge warning", async () => {
    const port = 8870 + Math.floor(Math.random() * 20);
    const tunnel = "https://tunnel-for-helio.example";
    const child = spawn(process.execPath, [fileURLToPath(new URL("./start.mjs", import.meta.url))], {
      cwd: fileURLToPath(new URL("..", import.meta.url)),
      env: { ...process.env, PORT: String(port), PUBLIC_BASE_URL: tunnel },
      stdio: ["ignore", "pipe", "pipe"],
      detached: true,
    });
    let output = "";
    child.stdout.on("data", (d) => (output += d));
    child.stderr.on("data", (d) => (output += d));
    try {
      const deadline = Date.now() + 150_000;
      while (!output.includes("Helio is running on")) {
        if (Date.now() > deadline || child.exitCode !== null) throw new Error(`npm start did not come up:\n${output}`);
        await new Promise((r) => setTimeout(r, 250));
      }
      expect(output).toContain(`Helio is running on http://127.0.0.1:${port}`);
      expect(output).toContain(`Links in messages and Twilio callbacks use ${tunnel}`);
      expect(output).not.toMatch(/incur usage charges/);
      // The Worker trusts the tunnel's origin (CSRF by Origin reads PUBLIC_BASE_URL) and not the example's :8787.
      const post = (origin) =>
        fetch(`http://127.0.0.1:${port}/login`, {
          method: "POST",
          headers: { Origin: origin, "Content-Type": "application/x-www-form-urlencoded" },
          body: "email=a%40b.co&password=x",
          redirect: "manual",
        });
      expect((await post(tunnel)).status).not.toBe(403);
      expect((await post("http://127.0.0.1:8787")).status).toBe(403);
    } finally {
      await stopProcessGroup(child, "SIGINT", 1000);
    }
  }, 180_000);
});
