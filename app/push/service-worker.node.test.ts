import { readFileSync } from "node:fs";
import vm from "node:vm";
import { describe, expect, it } from "vitest";
import { SERVICE_WORKER_SOURCE } from "./service-worker-source";
import { BACKGROUND_COLOR, THEME_COLOR, WEB_MANIFEST } from "./web-manifest";

const ORIGIN = "https://helio.test";

/**
 * The served worker's very text, run in a fake ServiceWorkerGlobalScope: Cache Storage in a Map, a network that
 * answers what the test says, events dispatched by hand. What it stores and answers is what a browser would.
 */
function fakeWorker(network: (req: Request) => Promise<Response>) {
  const listeners = new Map<string, (e: unknown) => void>();
  const stores = new Map<string, Map<string, Response>>();
  const puts: string[] = [];
  const open = async (name: string) => {
    if (!stores.has(name)) stores.set(name, new Map());
    const store = stores.get(name)!;
    return {
      put: async (req: Request | string, res: Response) => {
        const url = typeof req === "string" ? new URL(req, ORIGIN).href : req.url;
        puts.push(url);
        store.set(url, res);
      },
      addAll: async (urls: string[]) => {
        for (const u of urls) store.set(new URL(u, ORIGIN).href, new Response(`precached ${u}`));
      },
    };
  };
  const caches = {
    open,
    keys: async () => [...stores.keys()],
    delete: async (name: string) => stores.delete(name),
    match: async (req: Request | string) => {
      const url = typeof req === "string" ? new URL(req, ORIGIN).href : req.url;
      for (const s of stores.values()) if (s.has(url)) return s.get(url)!.clone();
      return undefined;
    },
  };
  const self = {
    location: new URL(ORIGIN + "/sw.js"),
    addEventListener: (type: string, fn: (e: unknown) => void) => listeners.set(type, fn),
    skipWaiting: async () => undefined,
    clients: { claim: async () => undefined },
  };
  const context = vm.createContext({ self, caches, fetch: network, Response, Request, URL, Promise, console });
  vm.runInContext(SERVICE_WORKER_SOURCE, context);

  async function dispatch(type: string, init: Record<string, unknown> = {}) {
    const waits: Promise<unknown>[] = [];
    let answer: Promise<Response> | null = null;
    listeners.get(type)!({
      ...init,
      waitUntil: (p: Promise<unknown>) => waits.push(p),
      respondWith: (p: Promise<Response>) => (answer = p),
    });
    const res = answer ? await answer : null;
    await Promise.all(waits);
    return res as Response | null;
  }
  /** A browser request through the worker: its answer, or null when the worker left it to the network. */
  const request = (path: string, init: { mode?: string; method?: string } = {}) => {
    const req = new Request(ORIGIN + path, { method: init.method ?? "GET" });
    Object.defineProperty(req, "mode", { value: init.mode ?? "cors" });
    return dispatch("fetch", { request: req });
  };
  return { dispatch, request, stores, puts };
}

const page = (body: string, headers: Record<string, string> = {}) => {
  const res = new Response(body, { status: 200, headers });
  Object.defineProperty(res, "type", { value: "basic" });
  return res;
};

describe("sw.js fetch routing", () => {
  it("never stores a signed-in page, loader data or /api JSON — only static build assets", async () => {
    // Even a page that forgot its no-store (the Worker sets it on every signed-in response) is never kept.
    const w = fakeWorker(async (req) => page(`network ${new URL(req.url).pathname}`));
    await w.dispatch("install");
    const nav = await w.request("/contacts/12", { mode: "navigate" });
    expect(await nav!.text()).toBe("network /contacts/12");
    // Loader data, /api and anything else are not the worker's to answer.
    expect(await w.request("/contacts/12.data")).toBeNull();
    expect(await w.request("/api/contacts")).toBeNull();
    expect(await w.request("/account/push", { method: "POST" })).toBeNull();
    expect(await w.request("/build/root-ABC123.js?x=1")).toBeNull();
    expect(w.puts).toEqual([]);
    // A static asset is kept (a plain same-origin 200 without no-store), then served from the cache.
    const assets = fakeWorker(async () =>
      page("console.log(1)", { "Cache-Control": "public, max-age=31536000, immutable" }),
    );
    await assets.request("/build/root-ABC123.js");
    expect(assets.puts).toEqual([`${ORIGIN}/build/root-ABC123.js`]);
    // …but not one that says no-store or private, even under /build/.
    const privateAsset = fakeWorker(async () => page("x", { "Cache-Control": "private" }));
    await privateAsset.request("/build/odd.js");
    expect(privateAsset.puts).toEqual([]);
  });

  it("offline, a navigation gets the precached offline page", async () => {
    const w = fakeWorker(async () => {
      throw new TypeError("Failed to fetch");
    });
    await w.dispatch("install");
    const res = await w.request("/conversations", { mode: "navigate" });
    expect(await res!.text()).toBe("precached /offline.html");
  });

  it("drops every cache when the page says clear-caches (logout)", async () => {
    const w = fakeWorker(async () => page("x", {}));
    await w.dispatch("install");
    expect(w.stores.size).toBe(1);
    await w.dispatch("message", { data: { type: "clear-caches" } });
    expect(w.stores.size).toBe(0);
  });
});

describe("the web manifest", () => {
  it("takes its colours from the theme tokens in app/tailwind.css", () => {
    const css = readFileSync(new URL("../tailwind.css", import.meta.url), "utf8");
    const token = (name: string) => new RegExp(`--color-${name}:\\s*(#[0-9a-f]{6})`).exec(css)?.[1];
    expect(THEME_COLOR).toBe(token("brand-500"));
    expect(BACKGROUND_COLOR).toBe(token("canvas"));
  });

  it("names icons that are real PNGs of the sizes it says", () => {
    for (const icon of WEB_MANIFEST.icons) {
      const png = readFileSync(new URL(`../../public${icon.src}`, import.meta.url));
      expect(png.subarray(0, 8)).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
      expect(`${png.readUInt32BE(16)}x${png.readUInt32BE(20)}`).toBe(icon.sizes);
    }
  });
});
