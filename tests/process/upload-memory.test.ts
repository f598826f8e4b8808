import { randomUUID } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { closeDatabase, openDatabase, setDatabase } from "~/platform/db/client.server";
import { createEvent } from "~/platform/db/factories";
import { unpackMigratedDatabase } from "../helpers/db";
import { createMember, sessionCookie } from "../helpers/members";
import { startBuiltServer, type RunningProcess } from "../helpers/processes";
import { withProductionBuild } from "../helpers/production-build";
import { sendRaw } from "../helpers/raw-http";
import { startS3Server } from "../helpers/s3";

const MB = 1024 * 1024;
const MULTIPART = "multipart/form-data; boundary=----hopewell";

/** The process's resident memory, from the kernel. */
function rssOf(pid: number): number {
  const line = /^VmRSS:\s+(\d+) kB$/m.exec(fs.readFileSync(`/proc/${pid}/status`, "utf8"));
  return Number(line![1]) * 1024;
}

/** Runs `work` while sampling the server's resident memory: how far it rose above where it was before. */
async function memoryRise<T>(
  pid: number,
  work: () => Promise<T>,
): Promise<{ result: T; before: number; peak: number; after: number }> {
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

/** A PDF by its first bytes (as the site judges a file), `size` bytes long. */
function pdfOf(size: number): Uint8Array {
  const bytes = new Uint8Array(size).fill(0x20);
  bytes.set(new TextEncoder().encode("%PDF-1.4\n%\u00e2\u00e3\n1 0 obj\n<<>>\nendobj\n"));
  bytes.set(new TextEncoder().encode("\n%%EOF\n"), size - 7);
  return bytes;
}

/**
 * The production server as operators run it, under uploads: refused ones (no session, the wrong
 * role) must cost it nothing like their size, and accepted ones go to storage as they arrive.
 */
describe("the production server under uploads", () => {
  withProductionBuild();
  const dataDirs: string[] = [];
  const servers: RunningProcess[] = [];
  let player = { id: "", cookie: "" };
  let applicantCookie = "";
  let eventId = "";

  /** A data directory whose embedded database holds a player, an applicant (both signed in) and an event. */
  beforeAll(async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "hopewell-upload-memory-"));
    dataDirs.push(dataDir);
    // Migrated already, rather than made afresh (PGlite's initdb costs seconds): this is about uploads.
    unpackMigratedDatabase(dataDir);
    const handle = await openDatabase({ dataDir });
    setDatabase(handle);
    try {
      const member = await createMember("player");
      player = { id: member.id, cookie: await sessionCookie(member) };
      applicantCookie = await sessionCookie(await createMember("applicant"));
      eventId = (await createEvent(handle.db, { title: "The Long Dark", date: "2099-10-02", status: "future" })).id;
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

  const stopAll = () => Promise.all(servers.map(stop));

  /**
   * Refused uploads sent at once. 200 of 5 MB are 1 GB arriving together: a server that buffered
   * refused bodies (or read them to the end before answering) would grow by several times the
   * 100 MB allowed, so this many still tells the two apart.
   */
  const REFUSED = 200;

  it(`stays within 100 MB while ${REFUSED} refused 5 MB uploads arrive at once, and answers every one before closing`, async () => {
    const { server, url } = await start();
    try {
      const pid = server.child.pid!;
      /** REFUSED posts at once, each with `bodyBytes` of multipart body, refused for want of a session or of a role. */
      const refusedPosts = (bodyBytes: number) =>
        Promise.allSettled(
          Array.from({ length: REFUSED }, (_, i) => {
            // They are answered in turn (http/pipeline/page-turns.ts), the last after all the others: on a
            // busy machine that can take a while, so each waits longer than sendRaw's usual 20 s.
            const options = { bodyBytes, contentType: MULTIPART, timeoutMs: 90_000 };
            // No session, as the attack came; a fifth of them signed in with a role the address refuses.
            if (i % 5 === 4) return sendRaw(url, "/costume", { ...options, headers: { Cookie: applicantCookie } });
            return sendRaw(url, i % 2 ? "/research" : "/research/upload", options);
          }),
        );
      // Warm up with the same posts, small: the server grows to what answering them all at once
      // takes, whatever they carry. What is measured next is what their bodies add.
      await refusedPosts(1024);

      const started = Date.now();
      const { result: settled, before, peak, after } = await memoryRise(pid, () => refusedPosts(5 * MB));
      console.log(
        `refused uploads: resident memory ${megabytes(before)} before, ${megabytes(peak)} at most, ${megabytes(after)} after`,
      );
      expect(peak - before, `resident memory rose from ${megabytes(before)} to ${megabytes(peak)}`).toBeLessThan(
        100 * MB,
      );
      expect(after - before, `resident memory stayed at ${megabytes(after)} from ${megabytes(before)}`).toBeLessThan(
        100 * MB,
      );
      // Each got its whole answer (sendRaw fails otherwise) before its connection was closed.
      const failures = settled.flatMap((outcome) =>
        outcome.status === "rejected" ? [String(outcome.reason).slice(0, 200)] : [],
      );
      expect(failures, `${failures.length} of ${REFUSED} got no whole answer`).toEqual([]);
      const answers = settled.flatMap((outcome) => (outcome.status === "fulfilled" ? [outcome.value] : []));
      const statuses = answers.map((answer) => answer.status);
      expect(statuses.filter((status) => status === 401)).toHaveLength((REFUSED * 4) / 5);
      expect(statuses.filter((status) => status === 403)).toHaveLength(REFUSED / 5);
      for (const answer of answers) expect(answer.headers.connection).toBe("close");
      const answeredMs = answers.map((answer) => answer.answeredMs).sort((a, b) => a - b);
      console.log(
        `${REFUSED} refused uploads answered in ${answeredMs[REFUSED / 2 - 1]} ms (median), ${answeredMs.at(-1)} ms (slowest); all done in ${Date.now() - started} ms`,
      );
      // Closed soon after the answer: not left open while the client sends the rest.
      expect(Math.max(...answers.map((answer) => answer.closedAfterMs))).toBeLessThan(5_000);

      expect(await (await fetch(`${url}/healthz`)).text()).toBe("ok");
      expect(server.output()).not.toMatch(/"level":50/);
    } finally {
      await stop(server);
    }
  }, 300_000);

  /** Posts the research form with a PDF of `size` bytes, as the page's script does. */
  function research(url: string, file: Uint8Array) {
    const form = new FormData();
    form.set("submissionKey", randomUUID());
    form.set("eventId", eventId);
    form.set("sources", "The assay office's ledgers.");
    form.set("research", "The seam runs under the chapel.");
    form.set("file", new Blob([file as Uint8Array<ArrayBuffer>], { type: "application/pdf" }), "seam.pdf");
    return fetch(`${url}/research/upload`, {
      method: "POST",
      headers: { Origin: url, Cookie: player.cookie },
      body: form,
    });
  }

  /** The research files stored for the player: their sizes. */
  const storedSizes = (root: string) => {
    const dir = path.join(root, "research", player.id);
    return fs.existsSync(dir) ? fs.readdirSync(dir).map((name) => fs.statSync(path.join(dir, name)).size) : [];
  };

  /**
   * Accepted uploads sent at once. Streaming them still raises resident memory by some tens of
   * megabytes whatever their number (buffers, the heap growing): 40 of 5 MB (200 MB) keep the
   * bound of half of what was sent well above that, where 10 would not.
   */
  const ACCEPTED = 40;
  const FILE_BYTES = 5 * MB - 64 * 1024;

  for (const backend of ["local", "s3"] as const) {
    it(`streams ${ACCEPTED} accepted 5 MB uploads to ${backend === "local" ? "files under DATA_DIR" : "an S3 bucket"} without holding them in memory`, async () => {
      const s3 = backend === "s3" ? await startS3Server() : undefined;
      try {
        const { server, url } = await start(s3?.env ?? {});
        const pid = server.child.pid!;
        const file = pdfOf(FILE_BYTES);
        const root = s3 ? path.join(s3.directory, "hopewell-test") : path.join(dataDirs[0]!, "files");
        const already = storedSizes(root).length;
        // Warm up: the first upload loads what judging a file needs.
        expect((await research(url, file)).status).toBe(200);

        const {
          result: answers,
          before,
          peak,
        } = await memoryRise(pid, () => Promise.all(Array.from({ length: ACCEPTED }, () => research(url, file))));
        expect(answers.map((answer) => answer.status)).toEqual(Array(ACCEPTED).fill(200));
        const sent = ACCEPTED * FILE_BYTES;
        console.log(
          `${ACCEPTED} accepted uploads (${backend}): resident memory ${megabytes(before)} before, ${megabytes(peak)} at most, for ${megabytes(sent)} uploaded`,
        );
        expect(
          peak - before,
          `resident memory rose from ${megabytes(before)} to ${megabytes(peak)} for ${megabytes(sent)} uploaded`,
        ).toBeLessThan(sent / 2);

        // Every file arrived whole.
        const sizes = s3
          ? fs
              .readdirSync(path.join(root, "research", player.id))
              .filter((name) => name.endsWith("._S3rver_object"))
              .map((name) => fs.statSync(path.join(root, "research", player.id, name)).size)
          : storedSizes(root);
        expect(sizes.length - already).toBe(ACCEPTED + 1);
        expect(new Set(sizes)).toEqual(new Set([FILE_BYTES]));
        expect(server.output()).not.toMatch(/"level":50/);
      } finally {
        await stopAll();
        await s3?.close();
      }
    }, 180_000);
  }
});
