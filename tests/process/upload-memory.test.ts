import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { closeDatabase, openDatabase, setDatabase } from "~/server/db/client.server";
import { createMember, sessionCookie } from "../helpers/members";
import { startBuiltServer, type RunningProcess } from "../helpers/processes";
import { withProductionBuild } from "../helpers/production-build";
import { sendRaw } from "../helpers/raw-http";

const MB = 1024 * 1024;
const MULTIPART = "multipart/form-data; boundary=----hopewell";

/** The process's resident memory, from the kernel. */
function rssOf(pid: number): number {
  const line = /^VmRSS:\s+(\d+) kB$/m.exec(fs.readFileSync(`/proc/${pid}/status`, "utf8"));
  return Number(line![1]) * 1024;
}

/** Runs `work` while sampling the server's resident memory: how far it rose above where it was before. */
async function memoryRise<T>(pid: number, work: () => Promise<T>): Promise<{ result: T; before: number; peak: number; after: number }> {
  const before = rssOf(pid);
  let peak = before;
  const sampler = setInterval(() => (peak = Math.max(peak, rssOf(pid))), 25);
  try {
    const result = await work();
    peak = Math.max(peak, rssOf(pid));
    return { result, before, peak, after: rssOf(pid) };
  } finally {
    clearInterval(sampler);
  }
}

const megabytes = (bytes: number) => `${Math.round(bytes / MB)} MB`;

/**
 * The production server as operators run it, under uploads: refused ones (no session, the wrong
 * role) must cost it nothing like their size.
 */
describe("the production server under uploads", () => {
  withProductionBuild();
  const dataDirs: string[] = [];
  const servers: RunningProcess[] = [];
  let applicantCookie = "";

  /** A data directory whose embedded database holds a signed-in applicant. */
  beforeAll(async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "hopewell-upload-memory-"));
    dataDirs.push(dataDir);
    const handle = await openDatabase({ dataDir });
    setDatabase(handle);
    try {
      applicantCookie = await sessionCookie(await createMember("applicant"));
    } finally {
      await closeDatabase();
    }
  }, 60_000);

  afterAll(() => {
    for (const server of servers) if (server.child.exitCode === null) server.child.kill("SIGKILL");
    for (const dir of dataDirs) fs.rmSync(dir, { recursive: true, force: true });
  });

  async function start(env: Record<string, string> = {}) {
    const started = await startBuiltServer({ DATA_DIR: dataDirs[0]!, ...env });
    servers.push(started.server);
    return started;
  }

  async function stop(server: RunningProcess) {
    if (server.child.exitCode === null) server.child.kill("SIGTERM");
    await server.exited;
  }

  it("stays within 100 MB while 600 refused 5 MB uploads arrive at once, and answers every one before closing", async () => {
    const { server, url } = await start();
    try {
      const pid = server.child.pid!;
      /** 600 posts at once, each with `bodyBytes` of multipart body, refused for want of a session or of a role. */
      const refusedPosts = (bodyBytes: number) =>
        Promise.allSettled(
          Array.from({ length: 600 }, (_, i) => {
            // They are answered in turn (server/page-turns.ts), the last after all the others: on a
            // busy machine that can take a while, so each waits longer than sendRaw's usual 20 s.
            const options = { bodyBytes, contentType: MULTIPART, timeoutMs: 90_000 };
            // No session, as the attack came; a fifth of them signed in with a role the address refuses.
            if (i % 5 === 4) return sendRaw(url, "/costume", { ...options, headers: { Cookie: applicantCookie } });
            return sendRaw(url, i % 2 ? "/research" : "/research/upload", options);
          }),
        );
      // Warm up with the same posts, small: the server grows to what answering 600 requests at once
      // takes, whatever they carry. What is measured next is what their bodies add.
      await refusedPosts(1024);

      const started = Date.now();
      const { result: settled, before, peak, after } = await memoryRise(pid, () => refusedPosts(5 * MB));
      console.log(`refused uploads: resident memory ${megabytes(before)} before, ${megabytes(peak)} at most, ${megabytes(after)} after`);
      expect(peak - before, `resident memory rose from ${megabytes(before)} to ${megabytes(peak)}`).toBeLessThan(100 * MB);
      expect(after - before, `resident memory stayed at ${megabytes(after)} from ${megabytes(before)}`).toBeLessThan(100 * MB);
      // Each got its whole answer (sendRaw fails otherwise) before its connection was closed.
      const failures = settled.flatMap((outcome) => (outcome.status === "rejected" ? [String(outcome.reason).slice(0, 200)] : []));
      expect(failures, `${failures.length} of 600 got no whole answer`).toEqual([]);
      const answers = settled.flatMap((outcome) => (outcome.status === "fulfilled" ? [outcome.value] : []));
      const statuses = answers.map((answer) => answer.status);
      expect(statuses.filter((status) => status === 401)).toHaveLength(480);
      expect(statuses.filter((status) => status === 403)).toHaveLength(120);
      for (const answer of answers) expect(answer.headers.connection).toBe("close");
      const answeredMs = answers.map((answer) => answer.answeredMs).sort((a, b) => a - b);
      console.log(`600 refused uploads answered in ${answeredMs[299]} ms (median), ${answeredMs.at(-1)} ms (slowest); all done in ${Date.now() - started} ms`);
      // Closed soon after the answer: not left open while the client sends the rest.
      expect(Math.max(...answers.map((answer) => answer.closedAfterMs))).toBeLessThan(5_000);

      expect(await (await fetch(`${url}/healthz`)).text()).toBe("ok");
      expect(server.output()).not.toMatch(/"level":50/);
    } finally {
      await stop(server);
    }
  }, 300_000);
});
