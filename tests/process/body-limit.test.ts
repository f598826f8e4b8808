import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { unpackMigratedDatabase } from "../helpers/db";
import { startBuiltServer, type RunningProcess } from "../helpers/processes";
import { withProductionBuild } from "../helpers/production-build";
import { sendRaw } from "../helpers/raw-http";

const MB = 1024 * 1024;

/** The process's resident memory, from the kernel. */
function rssOf(pid: number): number {
  const line = /^VmRSS:\s+(\d+) kB$/m.exec(fs.readFileSync(`/proc/${pid}/status`, "utf8"));
  return Number(line![1]) * 1024;
}

describe("the production server under oversized bodies", () => {
  withProductionBuild();
  let dataDir: string;
  let server: RunningProcess | undefined;
  beforeAll(() => {
    dataDir = unpackMigratedDatabase(fs.mkdtempSync(path.join(os.tmpdir(), "hopewell-body-limit-")));
  });
  afterAll(() => {
    if (server?.child.exitCode === null) server.child.kill("SIGKILL");
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it("keeps its memory flat while 300 MB bodies stream at POST /auth, and still answers", async () => {
    const { server: running, url } = await startBuiltServer({ DATA_DIR: dataDir });
    server = running;
    const pid = running.child.pid!;
    // Warm up: the sign-in page and a refused sign-in load what a request needs.
    expect((await fetch(`${url}/auth`)).status).toBe(200);
    await fetch(`${url}/auth`, {
      method: "POST",
      headers: { Origin: url, "Content-Type": "application/x-www-form-urlencoded" },
      body: "intent=signin",
    });
    const before = rssOf(pid);

    let peak = before;
    const sampler = setInterval(() => (peak = Math.max(peak, rssOf(pid))), 50);
    const started = Date.now();
    try {
      // No cookie, as the attack came: one body by its length, one chunked, two at once each.
      const answers = await Promise.all([
        sendRaw(url, "/auth", { bodyBytes: 300 * MB }),
        sendRaw(url, "/auth", { bodyBytes: 300 * MB, chunked: true }),
        sendRaw(url, "/letters", { bodyBytes: 300 * MB }),
        sendRaw(url, "/letters", { bodyBytes: 300 * MB, chunked: true }),
      ]);
      // A chunked body has no length to refuse it by: the sign-in form reads it until it passes
      // the limit (413), a letter without a session is refused before its body is read (401).
      expect(answers.map((answer) => answer.status)).toEqual([413, 413, 413, 401]);
    } finally {
      clearInterval(sampler);
    }
    // The clients were answered and cut off, not left to stall.
    expect(Date.now() - started).toBeLessThan(5_000);
    peak = Math.max(peak, rssOf(pid));
    expect(
      peak - before,
      `resident memory rose from ${Math.round(before / MB)} MB to ${Math.round(peak / MB)} MB`,
    ).toBeLessThan(100 * MB);

    expect((await fetch(`${url}/auth`)).status).toBe(200);
    expect(await (await fetch(`${url}/healthz`)).text()).toBe("ok");
    expect(server.output()).not.toMatch(/"level":50/);
  }, 120_000);
});
