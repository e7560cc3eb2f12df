import { cloudflareTest, readD1Migrations } from "@cloudflare/vitest-pool-workers";
import { fileURLToPath } from "node:url";
import { configDefaults, defineConfig } from "vitest/config";

const here = (p: string) => fileURLToPath(new URL(p, import.meta.url));

// Unit and integration tests run inside workerd with a real D1 (migrations applied in tests/setup.ts).
// The Worker entry imports the classic `remix build` output, so `npm run test:unit` builds first.
export default defineConfig({
  plugins: [
    cloudflareTest(async () => ({
      main: "./workers/app.ts",
      wrangler: { configPath: "./wrangler.toml" },
      remoteBindings: false,
      miniflare: {
        bindings: {
          TEST_MIGRATIONS: await readD1Migrations(here("./migrations")),
          SESSION_SECRET: "test-session-secret",
          // wrangler.toml carries neither (decision 018). An https, non-private origin: with the Twilio token below,
          // a loopback one would make every send and webhook refuse (check-public-url.server.ts).
          PUBLIC_BASE_URL: "https://helio.test",
          SALES_ALERT_EMAIL: "sales-alerts@helio.test",
          // Webhook signatures are checked with this token; without an account SID the Worker itself still
          // uses the local outbox. Everything else is blank so a developer's .dev.vars never leaks in.
          TWILIO_AUTH_TOKEN: "test-twilio-auth-token",
          TWILIO_ACCOUNT_SID: "",
          TWILIO_FROM_NUMBER: "",
          TWILIO_MESSAGING_SERVICE_SID: "",
          TWILIO_API_BASE: "",
          SENDGRID_API_KEY: "",
          UNSUBSCRIBE_SECRET: "",
          EMAIL_FROM: "",
          SMS_RATE_PER_SECOND: "1000",
          OPENAI_API_KEY: "",
          OPENAI_BASE_URL: "",
          OPENAI_MODEL: "",
          // Worker-level tests skip the binding (it only throws locally, noisily); the chain tests hand in fake bindings.
          AI_DISABLE_WORKERS_AI: "1",
        },
      },
    })),
  ],
  resolve: { alias: { "~": here("./app") } },
  test: {
    include: ["app/**/*.test.{ts,tsx}", "workers/**/*.test.ts", "tests/unit/**/*.test.ts"],
    // *.node.test.ts read data sets from node_modules: vitest.node.config.ts runs them in Node.
    exclude: [...configDefaults.exclude, "**/*.node.test.ts"],
    setupFiles: ["./tests/setup.ts"],
    // One workerd runtime per vitest worker, not per file (decision 051): starting one costs ~5 s and there are 120
    // files. tests/setup.ts gives every file a freshly migrated database all the same.
    isolate: false,
    // Fake Twilio/SendGrid servers in Node; their URLs reach workerd tests through `provide`/`inject`.
    globalSetup: ["./tests/global-setup.ts"],
    deps: { optimizer: { ssr: { enabled: true, include: ["@remix-run/cloudflare"] } } },
    testTimeout: 30_000,
  },
});
