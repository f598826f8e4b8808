import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createBackup } from "~/ops/backup/dump.server";
import { backupFileName, BACKUP_FILE_PATTERN } from "~/ops/backup/format.server";
import { restoreBackup } from "~/ops/backup/restore.server";
import { scheduledBackupsJob } from "~/ops/backup/schedule.server";
import { BACKUP_STAGE_PREFIX, makeStage, removeStage, STALE_ELSEWHERE_MS } from "~/ops/backup/stages.server";
import { overrideConfig } from "~/platform/config.server";
import { startTimerJob } from "~/platform/jobs.server";
import type { DatabaseHandle } from "~/platform/db/client.server";
import { unpackMigratedDatabase, withTestDatabase } from "../helpers/db";
import { run, type RunningProcess } from "../helpers/processes";

/**
 * A backup is put together in a folder beside the archive that holds every table in plain text
 * (password hashes, sessions). One killed before it ends (kill -9) cannot remove its folder: the
 * next backup, and the server's start, do, and touch nothing else.
 */
const db = withTestDatabase();
const temps: string[] = [];
function tempDir(label: string): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `hopewell-${label}-`));
  temps.push(dir);
  return dir;
}
const waiting: RunningProcess[] = [];

beforeAll(() => {
  overrideConfig({ dataDir: tempDir("stages-data") });
});
afterAll(async () => {
  for (const child of waiting)
    if (child.child.exitCode === null && child.child.signalCode === null) child.child.kill("SIGKILL");
  for (const dir of temps) fs.rmSync(dir, { recursive: true, force: true });
});

/**
 * A backup process that made its folder and wrote a table into it, then was killed (or still runs,
 * with "wait"). With "power-cut" its folder has no guard, as when the machine stopped.
 */
async function backupProcess(
  dir: string,
  mode: "die" | "wait",
  kind: "backup" | "restore" = "backup",
  how: "kill" | "power-cut" = "power-cut",
): Promise<{ stage: string; process: RunningProcess }> {
  const child = run(process.execPath, ["--import", "tsx", "tests/fixtures/killed-backup.ts", dir, mode, kind, how]);
  waiting.push(child);
  if (mode === "die") expect((await child.exited).signal).toBe("SIGKILL");
  else await child.waitFor(/\n/);
  return { stage: child.output().trim().split("\n")[0]!, process: child };
}

/** What an earlier version of the site left after kill -9: `.hopewell-backup-` and six random characters. */
function earlierVersionsLeftover(dir: string): string {
  const stage = path.join(dir, `${BACKUP_STAGE_PREFIX}Xy12Zq`);
  fs.mkdirSync(path.join(stage, "db"), { recursive: true });
  fs.writeFileSync(path.join(stage, "db", "public.accounts.jsonl"), '{"password":"$argon2id$..."}\n');
  return stage;
}

function otherMachinesStage(dir: string, name: string, ageMs: number): string {
  const stage = path.join(dir, `${BACKUP_STAGE_PREFIX}4242-${name}-AbCdEf`);
  fs.mkdirSync(path.join(stage, "db"), { recursive: true });
  const when = new Date(Date.now() - ageMs);
  fs.utimesSync(stage, when, when);
  return stage;
}

const names = (dir: string) => fs.readdirSync(dir).sort();

/** Every file under `dir`, by its path inside it. */
function filesUnder(dir: string): string[] {
  return fs
    .readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => !entry.isDirectory())
    .map((entry) => path.relative(dir, path.join(entry.parentPath, entry.name)))
    .sort();
}

describe("a backup or restore killed with SIGKILL", () => {
  it("leaves nothing readable beside the archives a moment later, without another backup or start", async () => {
    const dataDir = unpackMigratedDatabase(tempDir("stages-killed-data"));
    const dir = tempDir("stages-killed");
    const child = run(process.execPath, ["--import", "tsx", "tests/fixtures/backup-loop.ts", dataDir, dir]);
    waiting.push(child);
    await child.waitFor(/ready/, 60_000);
    // Killed while a backup is being put together: its tables are in plain text in its folder.
    await expect
      .poll(
        () => filesUnder(dir).some((file) => file.startsWith(BACKUP_STAGE_PREFIX) && file.includes("/db/public.")),
        { timeout: 30_000, interval: 2 },
      )
      .toBe(true);
    child.child.kill("SIGKILL");
    expect((await child.exited).signal).toBe("SIGKILL");
    await expect
      .poll(() => filesUnder(dir).filter((file) => !BACKUP_FILE_PATTERN.test(file)), { timeout: 5_000 })
      .toEqual([]);
  }, 90_000);

  it.each(["backup", "restore"] as const)(
    "leaves nothing of a %s's folder",
    async (kind) => {
      const dir = kind === "restore" ? os.tmpdir() : tempDir("stages-guarded");
      const running = await backupProcess(dir, "wait", kind, "kill");
      expect(fs.existsSync(path.join(running.stage, "db", "public.sessions.jsonl"))).toBe(true);
      running.process.child.kill("SIGKILL");
      await running.process.exited;
      await expect.poll(() => fs.existsSync(running.stage), { timeout: 5_000 }).toBe(false);
    },
    60_000,
  );
});

/** The processes whose command line names `text` (the guard of a stage names its folder). */
function processesNaming(text: string): number[] {
  return fs
    .readdirSync("/proc")
    .filter((name) => /^\d+$/.test(name))
    .filter((pid) => {
      try {
        return fs.readFileSync(`/proc/${pid}/cmdline`, "utf8").includes(text);
      } catch {
        return false;
      }
    })
    .map(Number);
}

describe("a backup's guard", () => {
  it("still removes the folder when the supervisor signals every process of the service as the backup dies", async () => {
    const running = await backupProcess(tempDir("stages-supervised"), "wait", "backup", "kill");
    const guards = processesNaming(running.stage);
    expect(guards.length).toBeGreaterThan(0);
    // systemd stopping a service's control group: TERM to all of them, the backup killed outright.
    for (const pid of guards) process.kill(pid, "SIGTERM");
    running.process.child.kill("SIGKILL");
    await running.process.exited;
    await expect.poll(() => fs.existsSync(running.stage), { timeout: 5_000 }).toBe(false);
    await expect.poll(() => processesNaming(running.stage), { timeout: 5_000 }).toEqual([]);
  }, 60_000);
});

describe("what a backup stopped with the machine (a power cut) leaves", () => {
  it("is removed by the next backup, which leaves running backups' folders and everything else alone", async () => {
    const dir = tempDir("stages-backups");
    const killed = await backupProcess(dir, "die");
    const earlier = earlierVersionsLeftover(dir);
    const running = await backupProcess(dir, "wait");
    const ownRunning = await makeStage(dir, BACKUP_STAGE_PREFIX);
    const elsewhereFresh = otherMachinesStage(dir, "another-machine", 60_000);
    const elsewhereStale = otherMachinesStage(dir, "a-gone-machine", STALE_ELSEWHERE_MS + 60_000);
    // Named like ours, but not folders we made: a link (never followed) and a file.
    const outside = tempDir("stages-outside");
    fs.writeFileSync(path.join(outside, "keep.txt"), "not the backup's");
    fs.symlinkSync(outside, path.join(dir, `${BACKUP_STAGE_PREFIX}LnK123`));
    fs.writeFileSync(path.join(dir, `${BACKUP_STAGE_PREFIX}notes`), "an operator's notes");
    fs.mkdirSync(path.join(dir, "elsewhere"));
    for (const stage of [killed.stage, earlier]) expect(fs.existsSync(path.join(stage, "db"))).toBe(true);

    const result = await createBackup(db(), "pglite", path.join(dir, backupFileName()));

    expect(result.leftovers.sort()).toEqual(
      [killed.stage, earlier, elsewhereStale].map((stage) => path.basename(stage)).sort(),
    );
    const left = names(dir);
    expect(left.filter((name) => BACKUP_FILE_PATTERN.test(name))).toHaveLength(1);
    expect(left.filter((name) => !BACKUP_FILE_PATTERN.test(name))).toEqual(
      [
        running.stage,
        ownRunning,
        elsewhereFresh,
        `${BACKUP_STAGE_PREFIX}LnK123`,
        `${BACKUP_STAGE_PREFIX}notes`,
        "elsewhere",
      ]
        .map((stage) => path.basename(stage))
        .sort(),
    );
    expect(fs.readFileSync(path.join(outside, "keep.txt"), "utf8")).toBe("not the backup's");

    // Once that backup's process is gone, its folder is a leftover too; this process's own goes when it ends.
    running.process.child.kill("SIGKILL");
    await running.process.exited;
    await removeStage(ownRunning);
    const next = await createBackup(db(), "pglite", path.join(dir, backupFileName(new Date(Date.now() + 1000))));
    expect(next.leftovers).toEqual([path.basename(running.stage)]);
  }, 60_000);

  it("is removed when the server starts, before any backup is due", async () => {
    const dir = tempDir("stages-start");
    const killed = await backupProcess(dir, "die");
    const earlier = earlierVersionsLeftover(dir);
    // The schedule uses the database and its kind; the server's own handle has more.
    const handle = { db: db(), kind: "pglite" } as DatabaseHandle;
    const schedule = startTimerJob(scheduledBackupsJob(handle, { dir, everyMs: 3_600_000, keep: 7 }));
    try {
      await expect.poll(() => names(dir), { timeout: 10_000 }).toEqual([]);
    } finally {
      await schedule.stop();
    }
    expect(fs.existsSync(killed.stage)).toBe(false);
    expect(fs.existsSync(earlier)).toBe(false);
  }, 60_000);

  it("by a restore is removed by the next restore", async () => {
    const killed = await backupProcess(os.tmpdir(), "die", "restore");
    temps.push(killed.stage);
    expect(fs.existsSync(path.join(killed.stage, "db", "public.sessions.jsonl"))).toBe(true);
    await expect(
      restoreBackup({
        file: path.join(tempDir("stages-restore"), "none.tar.gz"),
        dataDir: tempDir("stages-restore-data"),
      }),
    ).rejects.toThrow(/No backup file at/);
    expect(fs.existsSync(killed.stage)).toBe(false);
  }, 60_000);
});
