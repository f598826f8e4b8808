import { describe, expect, it } from "vitest";
import { withAppServer } from "../helpers/app-server";
import { withTestDatabase } from "../helpers/db";
import { signedInMember } from "../helpers/members";

withTestDatabase();
const app = withAppServer();

describe("the shared signed-out pages", () => {
  it("serve every visitor the same bytes with an ETag, compressed, and answer 304 to a revalidation", async () => {
    const first = await fetch(`${app().url}/`, { headers: { "Accept-Encoding": "br" } });
    const second = await fetch(`${app().url}/`, { headers: { "Accept-Encoding": "gzip" } });
    const etag = first.headers.get("ETag")!;
    expect(etag).toMatch(/^"[A-Za-z0-9_-]+"$/);
    expect(second.headers.get("ETag")).toBe(etag);
    expect(first.headers.get("Content-Encoding")).toBe("br");
    expect(second.headers.get("Content-Encoding")).toBe("gzip");
    expect(first.headers.get("Cache-Control")).toContain("s-maxage=");
    expect(first.headers.get("Vary")).toContain("Cookie");
    const html = await first.text();
    expect(html).toBe(await second.text());
    expect(html).toContain("Login / Sign Up");
    expect(html).toContain("Join the Adventure");
    // Plain HTML: everything on these pages works without the app's scripts.
    expect(html).not.toContain("<script");
    expect(html).not.toContain("modulepreload");
    expect(first.headers.get("Content-Security-Policy")).toContain("script-src 'self';");
    const revalidated = await fetch(`${app().url}/`, { headers: { "If-None-Match": etag } });
    expect(revalidated.status).toBe(304);
    expect(await revalidated.text()).toBe("");
  });

  it("honour the weights of Accept-Encoding: a refused encoding is never sent", async () => {
    const cases: [string, string | null][] = [
      ["br;q=0, gzip", "gzip"],
      ["gzip;q=0, br", "br"],
      ["gzip, br;q=0.5", "gzip"],
      ["gzip, br", "br"],
      ["br;q=0, gzip;q=0", null],
      ["identity", null],
      ["", null],
    ];
    const plain = await (await fetch(`${app().url}/`, { headers: { "Accept-Encoding": "identity" } })).text();
    for (const [accepted, expected] of cases) {
      const response = await fetch(`${app().url}/`, { headers: { "Accept-Encoding": accepted } });
      expect(response.headers.get("Content-Encoding"), accepted).toBe(expected);
      // fetch decodes what it was sent: the page is the same whichever copy it was.
      expect(await response.text(), accepted).toBe(plain);
    }
  });

  it("are never served to a signed-in member, before or after a signed-out visit", async () => {
    const player = await signedInMember("player");
    await fetch(`${app().url}/`);
    for (const path of ["/", "/rulebook", "/locations"]) {
      const response = await fetch(app().url + path, { headers: { Cookie: player.cookie } });
      expect(response.headers.get("ETag")).toBeNull();
      expect(response.headers.get("Content-Security-Policy")).toMatch(/'nonce-/);
      const html = await response.text();
      expect(html).toContain("Sign Out");
      expect(html).toContain("<script");
      expect(html).not.toContain("Login / Sign Up");
    }
    const home = await (await fetch(app().url + "/", { headers: { Cookie: player.cookie } })).text();
    expect(home).toContain("Apply Now");
    // And the member's page never leaks back to the shared copy.
    const anonymous = await (await fetch(`${app().url}/`)).text();
    expect(anonymous).toContain("Login / Sign Up");
    expect(anonymous).not.toContain(player.email);
  });
});
