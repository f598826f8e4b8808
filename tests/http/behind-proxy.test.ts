import type http from "node:http";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { config, type Config } from "~/platform/config.server";
import { profiles } from "~/platform/db/schema";
import { createAppServer } from "../../http/app";
import { solvedCaptcha } from "../helpers/captcha";
import { withTestDatabase } from "../helpers/db";
import { captureLogs } from "../helpers/logs";

/**
 * The site behind an https reverse proxy: the proxy talks plain http to the app and
 * says in X-Forwarded-Proto / X-Forwarded-Host what the visitor used. The same server
 * also runs without TRUST_PROXY, where those headers must change nothing.
 */
const db = withTestDatabase();
const logs = captureLogs();
const PUBLIC = "https://hopewell.example";

async function listen(cfg: Config): Promise<{ url: string; server: http.Server }> {
  const server = createAppServer(cfg, { assetsDir: "public" });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { url: `http://127.0.0.1:${(server.address() as { port: number }).port}`, server };
}

describe("forms behind an https reverse proxy", () => {
  let proxied: { url: string; server: http.Server };
  let direct: { url: string; server: http.Server };
  const saved = { ...process.env };

  beforeAll(async () => {
    Object.assign(process.env, { APP_URL: PUBLIC, SIGNUP_THROTTLE_MS: "0" });
    proxied = await listen({ ...config(), appUrl: PUBLIC, trustProxy: true });
    direct = await listen({ ...config(), appUrl: PUBLIC, trustProxy: false });
  });
  afterAll(async () => {
    for (const { server } of [proxied, direct]) {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
    process.env = saved;
  });

  async function signUp(baseUrl: string, email: string, headers: Record<string, string>) {
    return fetch(`${baseUrl}/auth`, {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded", ...headers },
      body: new URLSearchParams({
        intent: "signup",
        firstName: "Silas",
        lastName: "Marsh",
        email,
        password: "Lantern#1877",
        confirmPassword: "Lantern#1877",
        altcha: await solvedCaptcha(),
      }),
      redirect: "manual",
    });
  }
  const accountOf = async (email: string) =>
    db().select({ id: profiles.id }).from(profiles).where(eq(profiles.email, email));

  it("accepts a sign-up posted from the https site through the proxy", async () => {
    const response = await signUp(proxied.url, "proxied@example.com", {
      Host: "hopewell.example",
      "X-Forwarded-Proto": "https",
      "X-Forwarded-Host": "hopewell.example",
      Origin: PUBLIC,
    });
    expect(response.status).toBe(302);
    expect(response.headers.get("Location")).toBe("/auth?created=1");
    expect(await accountOf("proxied@example.com")).toHaveLength(1);
  });

  it("refuses a post whose Origin has the wrong scheme for the request", async () => {
    // An http page posting to the https site, through the proxy.
    const downgraded = await signUp(proxied.url, "downgraded@example.com", {
      "X-Forwarded-Proto": "https",
      "X-Forwarded-Host": "hopewell.example",
      Origin: "http://hopewell.example",
    });
    expect([400, 403]).toContain(downgraded.status);
    // An https origin with this server's own host, sent to it over plain http.
    const wrongScheme = await signUp(direct.url, "wrong-scheme@example.com", {
      Origin: direct.url.replace("http:", "https:"),
    });
    expect([400, 403]).toContain(wrongScheme.status);
    expect(await accountOf("downgraded@example.com")).toEqual([]);
    expect(await accountOf("wrong-scheme@example.com")).toEqual([]);
    // Turned away, not a fault of the site: at info, beside the request line (operators.md, "Health and logs").
    const refusals = logs
      .filter((line) => line.includes('"msg":"cross-site post refused"'))
      .map((line) => JSON.parse(line) as { level: number });
    expect(refusals.length).toBeGreaterThanOrEqual(2);
    expect(refusals.map((line) => line.level)).toEqual(refusals.map(() => 30));
  });

  it("ignores the forwarding headers without TRUST_PROXY", async () => {
    const forged = await signUp(direct.url, "forged@example.com", {
      "X-Forwarded-Proto": "https",
      "X-Forwarded-Host": "hopewell.example",
      Origin: PUBLIC.replace("https:", "http:"),
    });
    expect([400, 403]).toContain(forged.status);
    // Its own http origin still works.
    const own = await signUp(direct.url, "direct@example.com", { Origin: direct.url });
    expect(own.status).toBe(302);
    expect(await accountOf("forged@example.com")).toEqual([]);
  });

  it("says to set TRUST_PROXY when a sign-up comes through an https proxy the site does not trust", async () => {
    // nginx in front, TRUST_PROXY forgotten: the browser's own https page posts, and the site sees http.
    const response = await signUp(direct.url, "untrusted-proxy@example.com", {
      Accept: "text/html",
      Host: "hopewell.example",
      "X-Forwarded-Proto": "https",
      "X-Forwarded-Host": "hopewell.example",
      Origin: PUBLIC,
    });
    expect(response.status).toBe(400);
    const page = await response.text();
    expect(page).toContain('<h1 class="mt-4 text-3xl">Form Not Sent</h1>');
    expect(page).toContain(
      "Nothing was saved. If you run the site: set TRUST_PROXY=true in its settings (.env) and restart it.",
    );
    const refusal = logs.filter((line) => line.includes("TRUST_PROXY is not set"));
    expect(refusal.length).toBe(1);
    // At info, as every refusal of a client's request is: the log's warnings and errors are the site's own faults.
    expect(JSON.parse(refusal[0]!)).toMatchObject({ level: 30 });
    expect(await accountOf("untrusted-proxy@example.com")).toEqual([]);
  });

  it("keeps a forwarded host that is not a host name out of the request URL", async () => {
    const response = await signUp(proxied.url, "odd-host@example.com", {
      "X-Forwarded-Proto": "https",
      "X-Forwarded-Host": "evil.example/path",
      Origin: "https://evil.example",
    });
    expect([400, 403]).toContain(response.status);
    expect(await accountOf("odd-host@example.com")).toEqual([]);
  });
});
