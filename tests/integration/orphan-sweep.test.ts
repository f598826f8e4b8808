import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, afterEach, expect, it, vi } from "vitest";
import { overrideConfig } from "~/platform/config.server";
import { createProfile } from "~/platform/db/factories";
import { startTimerJob } from "~/platform/jobs.server";
import { listFiles, researchKey, saveFile } from "~/platform/storage/storage.server";
import { ORPHAN_GRACE_MS, orphanSweepJob, SWEEP_EVERY_MS } from "~/platform/storage/sweep.server";
import { withTestDatabase } from "../helpers/db";

/**
 * A crash between storing an upload's file and writing its row leaves a file no row names. The
 * server's sweep (the job as the server runs it: at start, then on its own schedule) keeps it
 * while an upload could still be writing its row, and removes it once its grace has passed.
 */
const db = withTestDatabase();
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "hopewell-orphan-sweep-"));
afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }));
afterEach(() => {
  vi.useRealTimers();
});

async function storedKeys(): Promise<string[]> {
  const found: string[] = [];
  for await (const file of listFiles()) found.push(file.key);
  return found;
}

it("removes a file no row names once its grace has passed, and not before", async () => {
  overrideConfig({ dataDir, storage: { kind: "local" } });
  const orphan = researchKey((await createProfile(db())).id, "pdf");
  await saveFile(orphan, Buffer.from("%PDF-1.4 an upload whose row was never written"));

  // The server's clocks, moved on by hand: an hour is not waited out.
  vi.useFakeTimers({ toFake: ["setTimeout", "setInterval", "Date"] });
  const job = startTimerJob(orphanSweepJob);
  try {
    // The sweep at start: the file is younger than the grace, and may be an upload in flight.
    await vi.advanceTimersByTimeAsync(0);
    await job.settled();
    expect(await storedKeys()).toEqual([orphan]);

    // The first sweep after the grace removes it. The sweep that comes when the clock reads exactly
    // one grace later sees a file exactly as old as the grace (to the millisecond, as the file's
    // time and the clock are read), so it may keep it; the one after may not. Each sweep is waited for:
    // a sweep still running when the next is due makes the job skip that one.
    await vi.advanceTimersByTimeAsync(ORPHAN_GRACE_MS);
    await job.settled();
    await vi.advanceTimersByTimeAsync(SWEEP_EVERY_MS);
    await job.settled();
    expect(await storedKeys()).toEqual([]);
  } finally {
    vi.useRealTimers();
    await job.stop();
  }
});
