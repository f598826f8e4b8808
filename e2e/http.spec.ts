import { expect, test } from "@playwright/test";

test.describe("HTTP behaviour", () => {
  test.skip(({ isMobile }) => isMobile, "one run is enough for headers");

  test("rendered pages carry the security headers and a fresh CSP nonce per response", async ({ request }) => {
    const first = await request.get("/auth");
    const second = await request.get("/auth");
    const csp = first.headers()["content-security-policy"]!;
    expect(csp).toMatch(/script-src 'self' 'nonce-[A-Za-z0-9+/=]+'/);
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).toContain("object-src 'none'");
    expect(csp).toContain("frame-src 'self' https://www.openstreetmap.org");
    expect(second.headers()["content-security-policy"]).not.toBe(csp);
    const nonce = csp.match(/'nonce-([^']+)'/)![1]!;
    expect(await first.text()).toContain(`nonce="${nonce}"`);
    expect(first.headers()["x-content-type-options"]).toBe("nosniff");
    expect(first.headers()["referrer-policy"]).toBe("strict-origin-when-cross-origin");
    // Served over plain http here, so no HSTS.
    expect(first.headers()["strict-transport-security"]).toBeUndefined();
  });

  test("signed-out public pages are shared: the same bytes, an ETag, and no scripts", async ({ request }) => {
    for (const path of ["/", "/rulebook", "/locations"]) {
      const first = await request.get(path);
      const second = await request.get(path);
      expect(first.headers()["etag"]).toBeTruthy();
      expect(second.headers()["etag"]).toBe(first.headers()["etag"]);
      const csp = first.headers()["content-security-policy"]!;
      expect(csp).toMatch(/script-src 'self';/);
      expect(csp).not.toContain("nonce-");
      expect(csp).toContain("frame-ancestors 'none'");
      expect(first.headers()["x-content-type-options"]).toBe("nosniff");
      const html = await first.text();
      expect(html).not.toContain("nonce=");
      expect(html).not.toContain("<script");
      const revalidated = await request.get(path, { headers: { "If-None-Match": first.headers()["etag"]! } });
      expect(revalidated.status()).toBe(304);
    }
  });

  test("the rulebook document may be framed by our own pages only", async ({ request }) => {
    const response = await request.get("/rulebook/document");
    expect(response.status()).toBe(200);
    expect(response.headers()["content-security-policy"]).toContain("frame-ancestors 'self'");
    expect(response.headers()["x-frame-options"]).toBe("SAMEORIGIN");
  });

  test("hashed assets are cached for a year; pages are compressed", async ({ request, page }) => {
    await page.goto("/");
    const stylesheet = await page.locator('link[rel="stylesheet"]').first().getAttribute("href");
    const asset = await request.get(stylesheet!);
    expect(asset.headers()["cache-control"]).toBe("public, max-age=31536000, immutable");
    const html = await request.get("/", { headers: { "Accept-Encoding": "gzip" } });
    expect(html.headers()["content-encoding"]).toBe("gzip");
  });

  test("/healthz answers when the database does", async ({ request }) => {
    const response = await request.get("/healthz");
    expect(response.status()).toBe(200);
    expect(await response.text()).toBe("ok");
  });

  test("an unknown address answers 404, for posts from our pages too", async ({ request, baseURL }) => {
    expect((await request.get("/nowhere")).status()).toBe(404);
    expect((await request.post("/nowhere", { form: { a: "b" }, headers: { Origin: baseURL! } })).status()).toBe(404);
    // A post with no Origin at all is refused before anything else.
    expect((await request.post("/nowhere", { form: { a: "b" } })).status()).toBe(403);
  });
});
