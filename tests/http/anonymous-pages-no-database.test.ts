import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ANONYMOUS_PAGES } from "../../http/pipeline/anonymous-cache";
import { AUTH_COOKIE_PREFIX } from "~/identity/auth-cookie.server";
import { closeDatabase, setDatabase, type Database } from "~/platform/db/client.server";
import { withAppServer } from "../helpers/app-server";

/**
 * The signed-out pages are rendered once and the same bytes served to every visitor
 * (http/pipeline/anonymous-cache.ts). That is only right if they read nothing from the database:
 * a page that did would show every visitor what was true when it was first rendered. Here
 * the database refuses every use and records it; the pages must still be served.
 */
const uses: string[] = [];
const refusingDatabase = new Proxy({} as Database, {
  get(_target, property) {
    uses.push(String(property));
    throw new Error(`the database was used (${String(property)}) while rendering`);
  },
});

beforeAll(() => {
  setDatabase({
    db: refusingDatabase,
    kind: "pglite",
    listen: () => Promise.reject(new Error("no database in this test")),
    holdLock: () => Promise.reject(new Error("no database in this test")),
    close: async () => {},
  });
});
afterAll(() => closeDatabase());
const app = withAppServer();

describe("the shared signed-out pages", () => {
  it("are rendered without a single use of the database", async () => {
    const headings: Record<string, string> = {
      "/": "hero-title",
      "/rulebook": "Rulebook</h1>",
      "/locations": "Game Location</h1>",
    };
    expect([...ANONYMOUS_PAGES].sort()).toEqual(Object.keys(headings).sort());
    for (const path of ANONYMOUS_PAGES) {
      const response = await fetch(app().url + path);
      expect(response.status, path).toBe(200);
      // Served from the shared copy, not rendered for this request alone.
      expect(response.headers.get("ETag"), path).toMatch(/^"/);
      const html = await response.text();
      expect(html, path).toContain(headings[path]);
      expect(html, path).toContain("Login / Sign Up");
    }
    expect(uses).toEqual([]);
  });

  it("would notice a page that used it: a member's page asks the database who is signed in", async () => {
    const response = await fetch(`${app().url}/events`, {
      headers: { Cookie: `${AUTH_COOKIE_PREFIX}.session_token=forged` },
    });
    await response.text();
    expect(uses.length).toBeGreaterThan(0);
  });
});
