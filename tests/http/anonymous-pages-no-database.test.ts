import { describe, expect, it } from "vitest";
import { ANONYMOUS_PAGES } from "../../http/pipeline/anonymous-cache";
import { AUTH_COOKIE_PREFIX } from "~/identity/auth-cookie.server";
import { withAppServer } from "../helpers/app-server";
import { withTestDatabase } from "../helpers/db";

/**
 * The signed-out pages are rendered once and the same bytes served to every visitor
 * (http/pipeline/anonymous-cache.ts). That is only right if they read nothing from the database
 * that can change unseen: a page that did would show every visitor what was true when it was
 * first rendered. The one read allowed is the club's own facts (the home page's FAQ), whose save
 * drops the kept pages (tests/features/club-facts/faq-page.test.ts). Here every query is logged.
 */
const queries: string[] = [];
withTestDatabase({ logger: { logQuery: (query) => queries.push(query) } });
const app = withAppServer();

describe("the shared signed-out pages", () => {
  it("are rendered reading nothing from the database but the club's facts", async () => {
    const headings: Record<string, string> = {
      "/": "hero-title",
      "/rulebook": "Rulebook</h1>",
      "/locations": "Game Location</h1>",
    };
    expect([...ANONYMOUS_PAGES].sort()).toEqual(Object.keys(headings).sort());
    queries.length = 0;
    for (const path of ANONYMOUS_PAGES) {
      const response = await fetch(app().url + path);
      expect(response.status, path).toBe(200);
      // Served from the shared copy, not rendered for this request alone.
      expect(response.headers.get("ETag"), path).toMatch(/^"/);
      const html = await response.text();
      expect(html, path).toContain(headings[path]);
      expect(html, path).toContain("Login / Sign Up");
    }
    expect(queries.length).toBeGreaterThan(0);
    for (const query of queries) expect(query).toMatch(/^select .* from "club_fact_versions"/);
  });

  it("would notice a page that read more: a member's page asks the database who is signed in", async () => {
    queries.length = 0;
    const response = await fetch(`${app().url}/events`, {
      headers: { Cookie: `${AUTH_COOKIE_PREFIX}.session_token=forged` },
    });
    await response.text();
    expect(queries.some((query) => !/from "club_fact_versions"/.test(query))).toBe(true);
  });
});
