import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { inArray } from "drizzle-orm";
import { afterEach, describe, expect, it } from "vitest";
import { openDatabase, type DatabaseHandle } from "~/platform/db/client.server";
import { acquireDataDirLock, DataDirLockedError } from "~/platform/db/lock.server";
import { processIsAlive, stateFromStat } from "~/platform/processes.server";
import { events } from "~/platform/db/schema";
import { unpackMigratedDatabase } from "../helpers/db";
import { run } from "../helpers/processes";

const dirs: string[] = [];
function tempDir(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "hopewell-datadir-"));
  dirs.push(dir);
  return dir;
}
const mounts: string[] = [];
afterEach(async () => {
  for (const mount of mounts.splice(0)) await unmount(mount);
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

/** Unmounts a FUSE mount, waiting out "busy" while a process that used it is still exiting. */
async function unmount(mount: string) {
  for (let attempt = 1; ; attempt++) {
    try {
      execFileSync("fusermount", ["-u", mount], { stdio: "pipe" });
      return;
    } catch (error) {
      if (attempt === 50) throw error;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
}

/**
 * fuse-zip mounts a ZIP file as a directory through FUSE, and its filesystem has no hard links,
 * as some network shares and FUSE mounts have none (installed by .ci/run; mounting needs root).
 */
const FUSE_ZIP = fs.existsSync("/usr/bin/fuse-zip") && fs.existsSync("/dev/fuse") && process.getuid?.() === 0;

/** A directory on a filesystem without hard links. */
function dirWithoutHardLinks(): string {
  const mount = tempDir();
  execFileSync("fuse-zip", [path.join(tempDir(), "data.zip"), mount]);
  mounts.push(mount);
  return mount;
}

/** Four processes taking and releasing the lock on `dir` for 2.5 s each: no two may ever hold it together. */
async function contend(dir: string) {
  const contenders = [1, 2, 3, 4].map(() =>
    run(process.execPath, ["--import", "tsx", "tests/fixtures/lock-contender.ts", dir, "2500"]),
  );
  const tallies = [];
  for (const contender of contenders) {
    const { code } = await contender.exited;
    expect(code, contender.output()).toBe(0);
    tallies.push(JSON.parse(contender.output()) as { held: number; refused: number; together: number });
  }
  // Each took the lock many times and was refused while another held it, and no two ever held it together.
  for (const tally of tallies) expect(tally).toMatchObject({ together: 0 });
  expect(tallies.reduce((sum, tally) => sum + tally.held, 0)).toBeGreaterThan(100);
  expect(tallies.reduce((sum, tally) => sum + tally.refused, 0)).toBeGreaterThan(100);
  expect(fs.readdirSync(dir)).toEqual([]);
}

describe("the embedded database's data directory", () => {
  it("refuses a second process while the first holds it", async () => {
    const dir = tempDir();
    const holder = run("sleep", ["30"]);
    fs.writeFileSync(path.join(dir, "hopewell.lock"), String(holder.child.pid));
    try {
      expect(() => acquireDataDirLock(dir)).toThrow(DataDirLockedError);
      expect(() => acquireDataDirLock(dir)).toThrow(/in use by another process/);
    } finally {
      holder.child.kill("SIGKILL");
    }
  });

  it("takes over a lock left by a process that died", async () => {
    const dir = tempDir();
    const dead = run("true", []);
    await dead.exited;
    fs.writeFileSync(path.join(dir, "hopewell.lock"), String(dead.child.pid));
    const release = acquireDataDirLock(dir);
    expect(fs.readFileSync(path.join(dir, "hopewell.lock"), "utf8")).toBe(String(process.pid));
    release();
    expect(fs.existsSync(path.join(dir, "hopewell.lock"))).toBe(false);
  });

  it("lets exactly one of several processes starting at once hold it, again and again", async () => {
    await contend(tempDir());
  }, 60_000);

  it.skipIf(!FUSE_ZIP)(
    "does the same on a filesystem without hard links (fuse-zip must be installed, and mounting needs root)",
    async () => {
      const dir = dirWithoutHardLinks();
      fs.writeFileSync(path.join(dir, "probe"), "");
      expect(() => fs.linkSync(path.join(dir, "probe"), path.join(dir, "probe-link"))).toThrow(/EPERM/);
      fs.rmSync(path.join(dir, "probe"));
      // The contenders start on an empty lock, as one left between its making and its pid: each
      // watches it for a second, then they race to take it over.
      fs.writeFileSync(path.join(dir, "hopewell.lock"), "");
      await contend(dir);
      // A live holder is still refused there, and a dead one's lock taken over.
      const holder = run("sleep", ["30"]);
      try {
        fs.writeFileSync(path.join(dir, "hopewell.lock"), String(holder.child.pid));
        expect(() => acquireDataDirLock(dir)).toThrow(DataDirLockedError);
      } finally {
        holder.child.kill("SIGKILL");
        await holder.exited;
      }
      const release = acquireDataDirLock(dir);
      expect(fs.readFileSync(path.join(dir, "hopewell.lock"), "utf8")).toBe(String(process.pid));
      release();
      expect(fs.readdirSync(dir)).toEqual([]);
    },
    60_000,
  );

  it("takes over a lock that names no process, and never signals a process group", async () => {
    const dir = tempDir();
    for (const content of ["", "0", "-1", "not a pid"]) {
      fs.writeFileSync(path.join(dir, "hopewell.lock"), content);
      const started = performance.now();
      const release = acquireDataDirLock(dir);
      // An empty lock may be one being written (where there are no hard links): it is left for a second first.
      if (content === "") expect(performance.now() - started).toBeGreaterThanOrEqual(1_000);
      expect(fs.readFileSync(path.join(dir, "hopewell.lock"), "utf8")).toBe(String(process.pid));
      release();
    }
    expect(processIsAlive(0)).toBe(false);
    expect(processIsAlive(-process.pid)).toBe(false);
  });

  it("leaves an empty lock alone while it may be being written, and is refused once it names a live holder", async () => {
    // Where there are no hard links, a starter creates the lock and writes its pid a moment after.
    const dir = tempDir();
    const lock = path.join(dir, "hopewell.lock");
    fs.writeFileSync(lock, "");
    const starter = run(process.execPath, ["--import", "tsx", "tests/fixtures/lock-once.ts", dir]);
    const holder = run("sleep", ["30"]);
    try {
      await starter.waitFor(/trying/, 30_000);
      await new Promise((resolve) => setTimeout(resolve, 300));
      fs.writeFileSync(lock, String(holder.child.pid));
      await starter.exited;
      expect(starter.output()).toContain(
        `refused: The data directory ${dir} is in use by another process (pid ${holder.child.pid})`,
      );
    } finally {
      holder.child.kill("SIGKILL");
    }
  }, 60_000);

  it("removes a take-over guard left for a second, even one naming a live process, and takes a dead holder's lock", async () => {
    // A starter killed while it held the guard; a container's server gets the same pid at every start.
    const dir = tempDir();
    const dead = run("true", []);
    await dead.exited;
    fs.writeFileSync(path.join(dir, "hopewell.lock"), String(dead.child.pid));
    fs.writeFileSync(path.join(dir, "hopewell.lock.takeover"), String(process.pid));
    const started = performance.now();
    const release = acquireDataDirLock(dir);
    expect(performance.now() - started).toBeGreaterThanOrEqual(1_000);
    expect(fs.readFileSync(path.join(dir, "hopewell.lock"), "utf8")).toBe(String(process.pid));
    release();
    expect(fs.readdirSync(dir)).toEqual([]);
  });

  it("opens at once after kill -9 while the killed holder is still in the process table", async () => {
    const dir = unpackMigratedDatabase(tempDir());
    // The writer's parent becomes `sleep`, which never reads its children's exit status: once
    // killed, the writer stays a zombie, as under a parent that has not yet reaped it.
    const parent = run("sh", [
      "-c",
      '"$0" --import tsx tests/fixtures/writer.ts "$1" & exec sleep 60',
      process.execPath,
      dir,
    ]);
    try {
      await parent.waitFor(/(committed .*\n){20}/, 60_000);
      const holder = Number(fs.readFileSync(path.join(dir, "hopewell.lock"), "utf8"));
      process.kill(holder, "SIGKILL");
      await expect
        .poll(() => fs.readFileSync(`/proc/${holder}/stat`, "utf8").split(") ")[1]![0], { timeout: 5_000, interval: 5 })
        .toBe("Z");
      const committed = [...parent.output().matchAll(/committed ([0-9a-f-]{36})/g)].map((match) => match[1]!);
      const handle = await openDatabase({ dataDir: dir });
      try {
        const found = await handle.db.select({ id: events.id }).from(events).where(inArray(events.id, committed));
        expect(found).toHaveLength(committed.length);
        // Still in the process table: it was taken over as gone, not waited out.
        expect(fs.existsSync(`/proc/${holder}`)).toBe(true);
      } finally {
        await handle.close();
      }
    } finally {
      parent.child.kill("SIGKILL");
    }
  }, 120_000);

  it("tells a holder the kernel is tearing down from a running one and from a zombie", () => {
    // /proc/<pid>/stat: pid, (name), state, ppid, pgrp, session, tty, tpgid, flags, ...
    const line = (state: string, flags: number) =>
      `4242 (node (server) x) ${state} 1 4242 4242 0 -1 ${flags} 120 0 0 0`;
    expect(stateFromStat(line("S", 0x400100))).toBe("running");
    expect(stateFromStat(line("R", 0x400104))).toBe("exiting");
    expect(stateFromStat(line("D", 0x400104))).toBe("exiting");
    expect(stateFromStat(line("Z", 0x400104))).toBe("ended");
    expect(stateFromStat(fs.readFileSync("/proc/self/stat", "utf8"))).toBe("running");
  });

  it("keeps every committed row when the writing process is killed with SIGKILL", async () => {
    // Migrated already (PGlite's initdb costs seconds): what is killed is a writer, not a first start.
    const dir = unpackMigratedDatabase(tempDir());
    const writer = run(process.execPath, ["--import", "tsx", "tests/fixtures/writer.ts", dir]);
    await writer.waitFor(/ready/, 60_000);
    await writer.waitFor(/(committed .*\n){40}/, 30_000);
    writer.child.kill("SIGKILL");
    await writer.exited;

    const committed = [...writer.output().matchAll(/committed ([0-9a-f-]{36})/g)].map((match) => match[1]!);
    expect(committed.length).toBeGreaterThanOrEqual(40);
    let handle: DatabaseHandle | undefined;
    try {
      // The dead writer's lock is taken over and the database opens cleanly.
      handle = await openDatabase({ dataDir: dir });
      const found = await handle.db.select({ id: events.id }).from(events).where(inArray(events.id, committed));
      expect(found).toHaveLength(committed.length);
    } finally {
      await handle?.close();
    }
  }, 120_000);
});
