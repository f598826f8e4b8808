import fs from "node:fs";
import { beforeEach, describe, expect, it } from "vitest";
import { EVENT_DAY_CACHE, EVENT_DAY_WORKER, SHEET_HEADER } from "~/features/event-day/event-day-offline";

/**
 * The event-day sheet's offline worker (public/event-day-sw.js), run against a stand-in browser:
 * Cache Storage in memory, and a site whose build (and so its files' names) can change between
 * two visits, or that cannot be reached at all. The browser test (e2e/event-day.spec.ts) covers
 * the worker in Chromium; this covers what a browser test cannot easily stage: a new build.
 */
const ORIGIN = "https://hopewell.test";
const SHEET = `${ORIGIN}/tools/event-day/5b0e7a52-2f2b-4c55-9d2e-0c1d6f3b9a10`;

type Build = { css: string; font: string; scripts: string[]; sprite: string };
const BUILD_A: Build = {
  css: "/assets/app-AAAA.css",
  font: "/assets/rye-AAAA.woff2",
  scripts: ["/assets/entry.client-AAAA.js", "/assets/event-day-AAAA.js"],
  sprite: "/assets/icons-AAAA.svg",
};
const BUILD_B: Build = {
  css: "/assets/app-BBBB.css",
  font: "/assets/rye-BBBB.woff2",
  scripts: ["/assets/entry.client-BBBB.js", "/assets/event-day-BBBB.js"],
  sprite: "/assets/icons-BBBB.svg",
};

function sheetHtml(build: Build, body = "<h1>Event-Day Sheet</h1>") {
  return [
    `<!DOCTYPE html><html lang="en"><head><meta charSet="utf-8"/>`,
    `<link rel="stylesheet" href="${build.css}"/><link rel="icon" href="/favicon.svg" type="image/svg+xml"/>`,
    ...build.scripts.map((script) => `<link rel="modulepreload" href="${script}"/>`),
    `<link rel="prefetch" href="${build.sprite}" as="image" type="image/svg+xml"/>`,
    `<link rel="preconnect" href="https://elsewhere.test"/></head><body>${body}</body></html>`,
  ].join("");
}

/** The site as the worker reaches it: the files of the build it now serves, and the sheet. */
class Site {
  build = BUILD_A;
  online = true;
  sheetBody = "<h1>Event-Day Sheet</h1>";
  manager = true;
  readonly requested: string[] = [];

  fetch = async (input: Request | string | { url: string }): Promise<Response> => {
    const url = typeof input === "string" ? input : input.url;
    if (!this.online) throw new TypeError("Failed to fetch");
    this.requested.push(new URL(url).pathname);
    const path = new URL(url).pathname;
    if (path === new URL(SHEET).pathname) {
      if (!this.manager) return new Response("Not found", { status: 404 });
      return new Response(sheetHtml(this.build, this.sheetBody), {
        headers: { "Content-Type": "text/html", [SHEET_HEADER]: "manager" },
      });
    }
    if (path === this.build.css)
      return new Response(
        `@font-face{font-family:Rye;src:url(${this.build.font}) format("woff2")}body{background:url("data:image/png;base64,AA")}`,
        { headers: { "Content-Type": "text/css" } },
      );
    if (path === this.build.font) return new Response("font", { headers: { "Content-Type": "font/woff2" } });
    if (this.build.scripts.includes(path))
      return new Response(`// ${path}`, { headers: { "Content-Type": "text/javascript" } });
    if (path === "/favicon.svg" || path === this.build.sprite)
      return new Response("<svg/>", { headers: { "Content-Type": "image/svg+xml" } });
    return new Response("Not found", { status: 404 });
  };
}

/** Cache Storage in memory: each kept response is stored whole and handed out as a fresh copy. */
class MemoryCache {
  readonly entries = new Map<string, { body: ArrayBuffer; status: number; headers: [string, string][] }>();
  private static url(request: Request | string) {
    return new URL(typeof request === "string" ? request : request.url, ORIGIN).href;
  }
  async put(request: Request | string, response: Response) {
    this.entries.set(MemoryCache.url(request), {
      body: await response.arrayBuffer(),
      status: response.status,
      headers: [...response.headers],
    });
  }
  async match(request: Request | string) {
    const kept = this.entries.get(MemoryCache.url(request));
    return kept ? new Response(kept.body.slice(0), { status: kept.status, headers: kept.headers }) : undefined;
  }
  async delete(request: Request | string) {
    return this.entries.delete(MemoryCache.url(request));
  }
  async keys() {
    return [...this.entries.keys()].map((url) => new Request(url));
  }
}

class MemoryCacheStorage {
  readonly caches = new Map<string, MemoryCache>();
  async open(name: string) {
    if (!this.caches.has(name)) this.caches.set(name, new MemoryCache());
    return this.caches.get(name)!;
  }
  async delete(name: string) {
    return this.caches.delete(name);
  }
  async keys() {
    return [...this.caches.keys()];
  }
  async match(request: Request | string, { cacheName }: { cacheName: string }) {
    return this.caches.get(cacheName)?.match(request);
  }
}

type Listener = (event: unknown) => void;

/** The worker's script, started in a stand-in for its global scope. */
function startWorker(site: Site, storage: MemoryCacheStorage) {
  const listeners = new Map<string, Listener>();
  const self = {
    location: new URL(`${ORIGIN}${EVENT_DAY_WORKER}`),
    addEventListener: (type: string, listener: Listener) => listeners.set(type, listener),
    skipWaiting: () => Promise.resolve(),
    clients: { claim: () => Promise.resolve() },
  };
  const script = fs.readFileSync(new URL(`../../../public${EVENT_DAY_WORKER}`, import.meta.url), "utf8");
  new Function("self", "caches", "fetch", script)(self, storage, site.fetch);

  /** Dispatches a fetch event as the browser would; the worker's answer, or null when it lets the request go to the network. */
  async function request(url: string, mode: "navigate" | "cors" | "no-cors") {
    const extended: Promise<unknown>[] = [];
    let answer: Promise<Response> | null = null;
    listeners.get("fetch")!({
      request: { url, method: "GET", mode },
      respondWith: (response: Promise<Response>) => (answer = response),
      waitUntil: (promise: Promise<unknown>) => extended.push(promise),
    });
    const response = answer === null ? null : await (answer as Promise<Response>).catch(() => "network error" as const);
    await Promise.all(extended);
    return response;
  }
  return {
    /** Opens the sheet as a page. */
    openSheet: () => request(SHEET, "navigate"),
    /** A file the open page loads: "network error" when neither the copy nor the site has it. */
    load: (path: string) => request(`${ORIGIN}${path}`, path.endsWith(".css") ? "no-cors" : "cors"),
    forget: async () => {
      const extended: Promise<unknown>[] = [];
      listeners.get("message")!({
        data: { type: "forget" },
        waitUntil: (promise: Promise<unknown>) => extended.push(promise),
      });
      await Promise.all(extended);
    },
  };
}

function keptPaths(storage: MemoryCacheStorage) {
  return [...(storage.caches.get(EVENT_DAY_CACHE)?.entries.keys() ?? [])].map((url) => new URL(url).pathname).sort();
}

function pathsOf(build: Build) {
  return [new URL(SHEET).pathname, build.css, build.font, ...build.scripts, "/favicon.svg", build.sprite].sort();
}

describe("the event-day sheet's offline worker", () => {
  let site: Site;
  let storage: MemoryCacheStorage;
  let worker: ReturnType<typeof startWorker>;
  beforeEach(() => {
    site = new Site();
    storage = new MemoryCacheStorage();
    worker = startWorker(site, storage);
  });

  it("keeps a manager's sheet with every file its head loads (styles, the font they name, scripts, icon, icons' sprite), and offline serves them all", async () => {
    const online = await worker.openSheet();
    expect(await (online as Response).text()).toContain("Event-Day Sheet");
    expect(keptPaths(storage)).toEqual(pathsOf(BUILD_A));

    site.online = false;
    const offline = await worker.openSheet();
    expect(await (offline as Response).text()).toBe(sheetHtml(BUILD_A));
    for (const path of [BUILD_A.css, BUILD_A.font, ...BUILD_A.scripts, "/favicon.svg", BUILD_A.sprite]) {
      const file = await worker.load(path);
      expect(file, path).toBeInstanceOf(Response);
      expect((file as Response).status).toBe(200);
    }
    expect(await ((await worker.load(BUILD_A.css)) as Response).text()).toContain(BUILD_A.font);
    // Not kept, and no network: the page's request fails as it would without the worker.
    expect(await worker.load("/assets/other.js")).toBe("network error");
  });

  it("after a new build, a copy kept before it still opens offline with the files it was kept with; the next copy replaces them", async () => {
    await worker.openSheet();
    site.build = BUILD_B;

    // The site now has other files: the old ones are gone from it, but not from the copy.
    expect((await site.fetch(`${ORIGIN}${BUILD_A.css}`)).status).toBe(404);
    site.online = false;
    expect(await ((await worker.openSheet()) as Response).text()).toBe(sheetHtml(BUILD_A));
    for (const path of [BUILD_A.css, BUILD_A.font, ...BUILD_A.scripts])
      expect(((await worker.load(path)) as Response).status, path).toBe(200);

    // Back online, the sheet of the new build is kept with the new build's files, and the old ones are dropped.
    site.online = true;
    await worker.openSheet();
    expect(keptPaths(storage)).toEqual(pathsOf(BUILD_B));
    site.online = false;
    expect(await ((await worker.openSheet()) as Response).text()).toBe(sheetHtml(BUILD_B));
    for (const path of [BUILD_B.css, BUILD_B.font, ...BUILD_B.scripts])
      expect(((await worker.load(path)) as Response).status, path).toBe(200);
  });

  it("drops the sheet and its files when the site answers anything but a manager's sheet, and everything when told to forget", async () => {
    await worker.openSheet();
    site.manager = false;
    expect(((await worker.openSheet()) as Response).status).toBe(404);
    expect(keptPaths(storage)).toEqual([]);

    site.manager = true;
    await worker.openSheet();
    expect(keptPaths(storage)).toEqual(pathsOf(BUILD_A));
    await worker.forget();
    expect(await storage.keys()).toEqual([]);
  });

  it("fetches only the files named in the sheet's head, never a link written in its body", async () => {
    site.sheetBody = '<p>&lt;link rel="stylesheet" href="/logout"&gt;</p><link rel="stylesheet" href="/profile/data">';
    await worker.openSheet();
    expect(site.requested).not.toContain("/logout");
    expect(site.requested).not.toContain("/profile/data");
    expect(keptPaths(storage)).toEqual(pathsOf(BUILD_A));
  });
});
