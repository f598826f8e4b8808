import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { afterEach, describe, expect, it } from "vitest";
import { withDatabaseName } from "../helpers/database-urls";
import { unpackMigratedDatabase } from "../helpers/db";
import { run, startBuiltServer, type RunningProcess } from "../helpers/processes";
import { withProductionBuild } from "../helpers/production-build";

// The production server as operators run it: built first when the sources changed.
withProductionBuild();

const running: RunningProcess[] = [];
const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const proc of running.splice(0)) if (proc.child.exitCode === null) proc.child.kill("SIGKILL");
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

async function startServer(env: Record<string, string>) {
  const started = await startBuiltServer({ LOG_LEVEL: "info", ...env });
  running.push(started.server);
  return started;
}

/** Runs the container image's HEALTHCHECK command against this server, as the engine would. */
async function imageHealthCheck(url: string): Promise<number | null> {
  const line = /HEALTHCHECK[^\n]*\\\n\s+CMD (\[.*\])$/m.exec(fs.readFileSync("Dockerfile", "utf8"))![1]!;
  const [command, ...args] = JSON.parse(line) as string[];
  const check = run(command === "node" ? process.execPath : command!, args, { PORT: new URL(url).port });
  return (await check.exited).code;
}

async function healthUntil(url: string, text: string, timeoutMs = 15_000): Promise<string> {
  const deadline = Date.now() + timeoutMs;
  let last = "";
  while (Date.now() < deadline) {
    const response = await fetch(`${url}/healthz`);
    last = `${response.status} ${await response.text()}`;
    if (last.endsWith(text)) return last;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  return last;
}

function logLines(output: string): Record<string, unknown>[] {
  return output
    .split("\n")
    .filter((line) => line.startsWith("{"))
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

describe("the server's logs", () => {
  it("logs one line per request with method, route, status and duration, and never a query string or cookie", async () => {
    const dataDir = unpackMigratedDatabase(fs.mkdtempSync(path.join(os.tmpdir(), "hopewell-access-log-")));
    cleanups.push(() => fs.rmSync(dataDir, { recursive: true, force: true }));
    const { server, url } = await startServer({ DATA_DIR: dataDir });
    // Each answer read to its end before the next request: a line is logged when its answer ends,
    // and the reset page streams its link check after its headers.
    const visit = async (address: string, init?: RequestInit) => (await fetch(`${url}${address}`, init)).arrayBuffer();
    await visit("/reset-password?token=SecretResetToken123", {
      headers: { Cookie: "hopewell.session_token=SecretCookieValue456" },
    });
    await visit("/research/00000000-0000-4000-8000-000000000000/file?download=1", { redirect: "manual" });
    await visit("/healthz");
    await visit("/favicon.svg?v=2");
    await visit("/no-such-page?secret=SecretQuery789");
    await new Promise((resolve) => setTimeout(resolve, 300));

    const requests = logLines(server.output()).filter((line) => line.msg === "request");
    expect(requests.map(({ method, route, status }) => ({ method, route, status }))).toEqual([
      { method: "GET", route: "/reset-password", status: 200 },
      // A member-only route, signed out: the pattern, not the id in the address.
      { method: "GET", route: "/research/:id/file", status: 302 },
      { method: "GET", route: "/healthz", status: 200 },
      { method: "GET", route: "/favicon.svg", status: 200 },
      { method: "GET", route: "/*", status: 404 },
    ]);
    for (const line of requests) expect(line.ms).toEqual(expect.any(Number));
    // Times a person can read in journalctl: ISO 8601 in UTC, not milliseconds since 1970.
    for (const line of logLines(server.output())) {
      expect(line.time).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
      expect(Math.abs(Date.parse(line.time as string) - Date.now())).toBeLessThan(120_000);
    }
    expect(server.output()).not.toContain("SecretResetToken123");
    expect(server.output()).not.toContain("SecretCookieValue456");
    expect(server.output()).not.toContain("SecretQuery789");
  }, 120_000);

  const pgUrl = process.env.TEST_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";
  it("answers /healthz with 503 and logs why when PostgreSQL turns read-only", async (context) => {
    const admin = new pg.Client({ connectionString: pgUrl, connectionTimeoutMillis: 3000 });
    try {
      await admin.connect();
    } catch {
      context.skip("no PostgreSQL server answers");
    }
    const name = `hopewell_health_${crypto.randomBytes(4).toString("hex")}`;
    await admin.query(`create database ${name}`);
    cleanups.push(async () => {
      await admin.query(`drop database if exists ${name} with (force)`);
      await admin.end();
    });
    const filesDir = fs.mkdtempSync(path.join(os.tmpdir(), "hopewell-health-pg-"));
    cleanups.push(() => fs.rmSync(filesDir, { recursive: true, force: true }));
    const { server, url } = await startServer({ DATABASE_URL: withDatabaseName(pgUrl, name), DATA_DIR: filesDir });
    expect((await fetch(`${url}/healthz`)).status).toBe(200);
    expect(await imageHealthCheck(url), "the Dockerfile's HEALTHCHECK passes").toBe(0);

    // New sessions on the database are read-only; the app's pooled ones are ended so it reconnects.
    await admin.query(`alter database ${name} set default_transaction_read_only = on`);
    await admin.query(
      `select pg_terminate_backend(pid) from pg_stat_activity where datname = $1 and pid <> pg_backend_pid()`,
      [name],
    );
    // Queries right after the cut may meet pooled connections that died (each is dropped
    // from the pool as it fails): ask until a live, read-only connection answers.
    expect(await healthUntil(url, "database cannot be written")).toBe("503 database cannot be written");
    expect(await imageHealthCheck(url), "the Dockerfile's HEALTHCHECK fails").toBe(1);
    await server.waitFor(/"reason":"cannot execute INSERT in a read-only transaction".*health check failed/, 10_000);
    expect((await fetch(`${url}/`)).status).toBe(200);

    await admin.query(`alter database ${name} set default_transaction_read_only = off`);
    await admin.query(
      `select pg_terminate_backend(pid) from pg_stat_activity where datname = $1 and pid <> pg_backend_pid()`,
      [name],
    );
    expect(await healthUntil(url, "ok")).toBe("200 ok");
    server.child.kill("SIGTERM");
    await server.exited;
  }, 120_000);
});
