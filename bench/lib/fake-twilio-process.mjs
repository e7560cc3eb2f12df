// The fake Twilio in a process of its own, for the pacing check. The fake stamps each call with its own clock on its
// own event loop; in the bench's process that loop also runs Miniflare and the bench, and ran up to ~16 ms late
// (p99) during a paced run — late stamps that move a call toward the one after it and put N + 1 calls into one
// second that Helio started ≤ N apart. A process that only answers requests stamps them when they arrive.
//
// It mirrors the in-process fake's surface the bench reads (`url`, `port`, `createAccount()`, `connectionStats()`,
// an account's `calls` and `messages`), read over the fake's control API: `refresh()` pulls them.
import { spawn } from "node:child_process";
import { pathToFileURL } from "node:url";
import { once } from "node:events";
import { createInterface } from "node:readline";

const fakeModule = pathToFileURL(new URL("../../tests/fakes/fake-twilio.mjs", import.meta.url).pathname).href;

export async function startFakeTwilioProcess() {
  const child = spawn(
    process.execPath,
    [
      "--input-type=module",
      "-e",
      `const { startFakeTwilio } = await import(${JSON.stringify(fakeModule)});
       const fake = await startFakeTwilio({});
       console.log(JSON.stringify({ url: fake.url, port: fake.port }));`,
    ],
    { stdio: ["ignore", "pipe", "inherit"] },
  );
  const [line] = await once(createInterface({ input: child.stdout }), "line");
  const { url, port } = JSON.parse(line);
  const control = async (path, body) => {
    const res = await fetch(`${url}/__control${path}`, {
      method: body ? "POST" : "GET",
      body: body ? JSON.stringify(body) : undefined,
    });
    if (!res.ok) throw new Error(`fake Twilio process: ${path} answered ${res.status}`);
    return res.json();
  };
  let stats = (await control("/stats")).connections;
  const polls = [];

  return {
    url,
    port,
    /** A fresh account; its `calls` and `messages` are as of its last `refresh()`. */
    async createAccount() {
      const { accountSid, authToken } = await control("/accounts", {});
      const account = {
        accountSid,
        authToken,
        calls: [],
        messages: new Map(),
        /** The calls made so far, polled every 20 ms (what a waiting bench reads to know the sends are done). */
        callCount: 0,
        async refresh() {
          account.calls = (await control(`/calls?account=${accountSid}`)).calls;
          const { messages } = await control(`/messages?account=${accountSid}`);
          account.messages = new Map(messages.map((m) => [m.sid, m]));
          stats = (await control(`/stats?account=${accountSid}`)).connections;
        },
      };
      const poll = setInterval(async () => {
        account.callCount = (await control(`/stats?account=${accountSid}`).catch(() => ({}))).requests ?? 0;
      }, 20);
      polls.push(poll);
      return account;
    },
    /** Connection counts as of the last `refresh()`. */
    connectionStats: () => stats,
    async stop() {
      polls.forEach(clearInterval);
      child.kill();
      await once(child, "exit");
    },
  };
}
