import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { closeDatabase, setDatabase } from "~/platform/db/client.server";
import { startAppServer } from "../helpers/app-server";
import { createTestDatabase } from "../helpers/db";

/**
 * The server behind a reverse proxy over https, with a PDF rulebook. The built app
 * reads its settings from the environment on first use, so they are set first.
 */
describe("the server's settings", () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "hopewell-options-"));
  const saved = { ...process.env };
  let server: Awaited<ReturnType<typeof startAppServer>>;

  beforeAll(async () => {
    fs.writeFileSync(path.join(dataDir, "rules.pdf"), "%PDF-1.4\n% Hopewell rulebook\n");
    Object.assign(process.env, { TRUST_PROXY: "true", DATA_DIR: dataDir, RULEBOOK_PDF: "rules.pdf" });
    setDatabase(await createTestDatabase());
    server = await startAppServer();
  });
  afterAll(async () => {
    await server.close();
    await closeDatabase();
    process.env = saved;
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it("keys rate limits on the address the proxy reports, never one bucket for everyone", async () => {
    const challenge = (address: string) =>
      fetch(`${server.url}/captcha/challenge`, { headers: { "X-Forwarded-For": `198.51.100.200, ${address}` } });
    const statuses = [];
    for (let i = 0; i < 101; i++) statuses.push((await challenge("203.0.113.10")).status);
    expect(statuses.slice(0, 100).every((status) => status === 200)).toBe(true);
    expect(statuses[100]).toBe(429);
    // Another client behind the same proxy is not affected.
    expect((await challenge("203.0.113.11")).status).toBe(200);
  });

  it("sends HSTS only when the proxy says the request came over https", async () => {
    const plain = await fetch(`${server.url}/`);
    expect(plain.headers.get("Strict-Transport-Security")).toBeNull();
    const secure = await fetch(`${server.url}/`, { headers: { "X-Forwarded-Proto": "https" } });
    expect(secure.headers.get("Strict-Transport-Security")).toBe("max-age=31536000; includeSubDomains");
    expect(secure.headers.get("Content-Security-Policy")).toContain("upgrade-insecure-requests");
  });

  it("shows the club's PDF in the rulebook viewer when one is configured", async () => {
    const response = await fetch(`${server.url}/rulebook/document`);
    expect(response.headers.get("Content-Type")).toBe("application/pdf");
    expect(response.headers.get("Content-Security-Policy")).toContain("frame-ancestors 'self'");
    expect(await response.text()).toContain("% Hopewell rulebook");
  });

  it("answers /healthz with 503 once the database is gone", async () => {
    expect((await fetch(`${server.url}/healthz`)).status).toBe(200);
    await closeDatabase();
    const health = await fetch(`${server.url}/healthz`);
    expect(health.status).toBe(503);
    expect(await health.text()).toBe("database unavailable");
  });
});
