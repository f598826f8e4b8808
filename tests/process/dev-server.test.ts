import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { withAppServer } from "../helpers/app-server";
import { unpackMigratedDatabase, withTestDatabase } from "../helpers/db";
import { freePort, portIsClosed } from "../helpers/ports";
import { run, type RunningProcess } from "../helpers/processes";

/**
 * `npm run dev` runs the production server (http/app.ts), with Vite serving the
 * browser's modules: the same pipeline as production, compared here with the server the
 * HTTP tests run, both behind a proxy (TRUST_PROXY). One dev server serves every test here
 * (a start takes Vite most of a minute on a busy machine); the last one stops it as a
 * developer does, with Ctrl-C.
 */
withTestDatabase();
const production = withAppServer({ TRUST_PROXY: "true" });

const SECURITY_HEADERS = [
  "X-Content-Type-Options",
  "Referrer-Policy",
  "X-Frame-Options",
  "Cross-Origin-Opener-Policy",
  "Permissions-Policy",
];

describe("npm run dev", () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "hopewell-dev-"));
  let dev: RunningProcess;
  let port: number;
  let url: string;

  beforeAll(async () => {
    // What the server does in development, not a first start: the database is there already.
    unpackMigratedDatabase(dataDir);
    port = await freePort();
    // The README's `npm run dev -- --port 4000 --host 127.0.0.1`, over a PORT and a HOST in the
    // environment that would put it elsewhere: the command line wins.
    const elsewhere = await freePort();
    dev = run("npm", ["run", "dev", "--", "--port", String(port), "--host", "127.0.0.1"], {
      DATA_DIR: dataDir,
      PORT: String(elsewhere),
      HOST: "0.0.0.0",
      TRUST_PROXY: "true",
      NODE_ENV: "development",
    });
    await dev.waitFor(new RegExp(`running at http://127\\.0\\.0\\.1:${port}`), 120_000);
    url = `http://127.0.0.1:${port}`;
  }, 150_000);
  afterAll(async () => {
    // Stopped by the last test; a failure before it must not leave it running.
    if (dev?.child.exitCode === null) {
      dev.child.kill("SIGKILL");
      await dev.exited;
    }
    fs.rmSync(dataDir, { recursive: true, force: true });
  }, 30_000);

  it("answers /healthz as production does", async () => {
    for (const base of [url, production().url]) {
      const health = await fetch(`${base}/healthz`);
      expect(health.status, base).toBe(200);
      expect(await health.text()).toBe("ok");
    }
  });

  it("sends the same security headers and Content-Security-Policy, its nonce on the page's scripts", async () => {
    const [fromDev, fromProduction] = await Promise.all([
      fetch(`${url}/forgot-password`),
      fetch(`${production().url}/forgot-password`),
    ]);
    for (const header of SECURITY_HEADERS) {
      expect(fromDev.headers.get(header), header).toBeTruthy();
      expect(fromDev.headers.get(header), header).toBe(fromProduction.headers.get(header));
    }
    const policy = fromDev.headers.get("Content-Security-Policy")!;
    const nonce = /'nonce-([^']+)'/.exec(policy)![1]!;
    const anyNonce = (text: string) => text.replace(/'nonce-[^']+'/g, "'nonce-*'");
    expect(anyNonce(policy)).toBe(anyNonce(fromProduction.headers.get("Content-Security-Policy")!));
    expect(fromDev.headers.get("Cache-Control")).toBe(fromProduction.headers.get("Cache-Control"));
    const html = await fromDev.text();
    expect(html).toContain("Reset Password");
    const scripts = [...html.matchAll(/<script\b[^>]*>/g)].map((match) => match[0]);
    expect(scripts.length).toBeGreaterThan(0);
    for (const script of scripts) expect(script).toContain(`nonce="${nonce}"`);
    // Development's own part: the page loads the source through Vite, which serves it.
    expect(html).toContain('href="/app/root.tsx"');
    expect((await fetch(`${url}/app/root.tsx`)).status).toBe(200);

    // The sign-in page, drawn by the server alone, names its own script, which Vite compiles and serves.
    const signIn = await (await fetch(`${url}/auth`)).text();
    const pageScript = /<script type="module" src="([^"]+)" nonce="[^"]+"/.exec(signIn)?.[1]?.replaceAll("&amp;", "&");
    expect(pageScript).toBe("/app/routes/auth/auth.page.ts?worker_file&type=module");
    const compiled = await fetch(url + pageScript);
    expect(compiled.status).toBe(200);
    expect(compiled.headers.get("Content-Type")).toContain("javascript");
    expect(await compiled.text()).toContain("enhancePasswordFields");
  });

  it("serves the signed-out home page from the same cache, with its caching rules", async () => {
    const [fromDev, fromProduction] = await Promise.all([fetch(`${url}/`), fetch(`${production().url}/`)]);
    expect(fromDev.status).toBe(200);
    for (const header of ["Cache-Control", "Vary"])
      expect(fromDev.headers.get(header), header).toBe(fromProduction.headers.get(header));
    const etag = fromDev.headers.get("ETag")!;
    expect(etag).toMatch(/^"[\w-]+"$/);
    expect((await fetch(`${url}/`, { headers: { "If-None-Match": etag } })).status).toBe(304);
  });

  it("keys rate limits on the client's address from X-Forwarded-For behind a proxy", async () => {
    for (const base of [url, production().url]) {
      const challenge = (address: string) =>
        fetch(`${base}/captcha/challenge`, { headers: { "X-Forwarded-For": `198.51.100.200, ${address}` } });
      const statuses: number[] = [];
      for (let i = 0; i < 101; i++) statuses.push((await challenge("203.0.113.10")).status);
      expect(
        statuses.slice(0, 100).every((status) => status === 200),
        base,
      ).toBe(true);
      expect(statuses[100], base).toBe(429);
      // Another client behind the same proxy is not affected.
      expect((await challenge("203.0.113.11")).status, base).toBe(200);
    }
  }, 60_000);

  // Last: it stops the dev server the other tests use.
  it("stops on SIGINT to npm's PID (Ctrl-C) with the database closed and the lock released", async () => {
    // The CAPTCHA challenge signs with a secret kept in the database, so the database is open.
    expect((await fetch(`${url}/captcha/challenge`)).status).toBe(200);
    expect(fs.existsSync(path.join(dataDir, "hopewell.lock"))).toBe(true);
    process.kill(dev.child.pid!, "SIGINT");
    const { code } = await dev.exited;
    expect(code, dev.output()).toBe(0);
    expect(dev.output()).toContain("database closed");
    expect(await portIsClosed(port)).toBe(true);
    expect(fs.existsSync(path.join(dataDir, "hopewell.lock"))).toBe(false);
  }, 60_000);
});
