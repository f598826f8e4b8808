import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { unpackMigratedDatabase } from "../helpers/db";
import { run, startBuiltServer, type RunningProcess } from "../helpers/processes";
import { withProductionBuild } from "../helpers/production-build";

// The production server as operators run it: built first when the sources changed.
withProductionBuild();

describe("the production server process", () => {
  let dataDir: string;
  beforeAll(() => {
    // A data directory in use already (a first start on an empty one: npm-start.test.ts).
    dataDir = unpackMigratedDatabase(fs.mkdtempSync(path.join(os.tmpdir(), "hopewell-server-")));
  });
  afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }));

  async function startServer(
    extraEnv: Record<string, string> = {},
  ): Promise<{ server: RunningProcess; url: string; startMs: number }> {
    const started = performance.now();
    const { server, url } = await startBuiltServer({ DATA_DIR: dataDir, ...extraEnv }, 60_000);
    return { server, url, startMs: performance.now() - started };
  }

  it("serves, then stops within 5 seconds of SIGTERM with the database closed", async () => {
    const { server, url } = await startServer();
    const health = await fetch(`${url}/healthz`);
    expect(health.status).toBe(200);
    expect(await health.text()).toBe("ok");
    expect(fs.existsSync(path.join(dataDir, "hopewell.lock"))).toBe(true);

    const stoppedAt = performance.now();
    server.child.kill("SIGTERM");
    const { code } = await server.exited;
    expect(performance.now() - stoppedAt).toBeLessThan(5_000);
    expect(code).toBe(0);
    expect(server.output()).toMatch(/"msg":"database closed"/);
    expect(fs.existsSync(path.join(dataDir, "hopewell.lock"))).toBe(false);
  }, 90_000);

  it("starts again on the existing data directory, also after being killed with SIGKILL", async () => {
    const first = await startServer();
    expect(first.startMs).toBeLessThan(10_000);
    first.server.child.kill("SIGKILL");
    await first.server.exited;

    const second = await startServer();
    expect((await fetch(`${second.url}/healthz`)).status).toBe(200);
    second.server.child.kill("SIGTERM");
    expect((await second.server.exited).code).toBe(0);
  }, 90_000);

  it("refuses to start with a bad setting and says which", async () => {
    const server = run(process.execPath, ["server.mjs"], { DATA_DIR: dataDir, PORT: "eighty" });
    const { code } = await server.exited;
    expect(code).toBe(1);
    expect(server.output()).toMatch(/Invalid configuration:\n\s+- PORT:/);
  });
});
