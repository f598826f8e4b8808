import { spawn, type ChildProcessByStdio } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import type { Readable, Writable } from "node:stream";
import { hostTag, processIsAlive } from "~/platform/processes.server";

/**
 * The folders a backup is put together in (beside the archive, so the finished archive is
 * renamed into place) and a restore unpacks into. They hold every table in plain text, password
 * hashes and sessions among them, until the backup ends and removes its own. A process killed
 * during one (kill -9, the machine's memory killer) cannot, so each folder has a guard: a small
 * shell process that waits for the end of a pipe from the process that made the folder and then
 * removes it. The pipe ends when that process removes the folder itself or dies, however it dies,
 * so a killed backup leaves nothing readable a moment later. A power cut stops the guard too: every
 * backup, and the server at start, removes the folders left by processes that no longer run: only
 * folders named with our prefix, never through a link.
 *
 * A folder's name says who made it: `<prefix><pid>-<host>-<random>`. On this machine a folder is
 * left over when its process is gone (or, for this process, when it is not one of its backups
 * under way). One made on another machine (a backup folder shared by several servers) is left
 * over when nothing has been added to it for STALE_ELSEWHERE_MS; the pid cannot be asked there.
 * A backup folder named by an earlier version of the site, without pid or host, is left over too:
 * that version is not running once this one is. (Restores unpack into the system's temporary
 * folder, which other programs share, so there only folders named as this version names them
 * are taken.)
 */
export const BACKUP_STAGE_PREFIX = ".hopewell-backup-";
export const RESTORE_STAGE_PREFIX = "hopewell-restore-";

/** Far longer than any backup takes: its folder gains an entry at each step (tables, files, manifest, archive). */
export const STALE_ELSEWHERE_MS = 6 * 60 * 60_000;

/** The stages this process is using now. */
const live = new Set<string>();

/** The start of the name of a stage folder this process makes with `prefix` (the rest is random). */
export function stageNameStart(prefix: string): string {
  return `${prefix}${process.pid}-${hostTag()}-`;
}

/** Each stage's guard, whose pipe this process holds open while the stage is in use. */
const guards = new Map<string, ChildProcessByStdio<Writable, Readable, null>>();

/** Longer than a shell takes to start on a loaded machine; past it the stage is used unguarded. */
const GUARD_READY_MS = 10_000;

/**
 * Starts the guard that removes `stage` once this process lets go of its pipe, and resolves once
 * it is armed. `rm -rf` on the name removes a link put in its place, not what the link points to.
 * Started in its own process group, so a signal to this process's group (Ctrl-C) does not reach
 * it, and deaf to the signals a supervisor sends every process of the service when its main one
 * dies (systemd's control group): it ends by itself a moment after this process, its work done.
 * The shell is deaf only once its `trap` has run, so it says so on its output and the stage is
 * not used before then: a signal in the moment after its start would otherwise end it with the
 * folder still there. Without a shell (not the case on any system the site supports) the sweeps
 * are all there is.
 */
async function guard(stage: string): Promise<void> {
  let child: ChildProcessByStdio<Writable, Readable, null>;
  try {
    child = spawn("sh", ["-c", 'trap "" TERM INT HUP; echo armed; cat >/dev/null; rm -rf -- "$0"', stage], {
      stdio: ["pipe", "pipe", "ignore"],
      detached: true,
    });
  } catch {
    // Could not start one: the next backup or start removes the folder if this process is killed.
    return;
  }
  child.on("error", () => {});
  child.stdin.on("error", () => {});
  // Neither the guard nor its pipes keep this process running.
  child.unref();
  (child.stdin as unknown as { unref?: () => void }).unref?.();
  guards.set(stage, child);
  await new Promise<void>((resolve) => {
    const done = () => {
      clearTimeout(timer);
      child.stdout.destroy();
      resolve();
    };
    const timer = setTimeout(done, GUARD_READY_MS);
    timer.unref();
    child.stdout.once("data", done);
    child.stdout.once("error", done);
    child.once("error", done);
    child.once("exit", done);
  });
}

/** Makes a stage folder in `dir`, readable by its owner only, guarded, and counted as in use until `removeStage`. */
export async function makeStage(dir: string, prefix: string): Promise<string> {
  const stage = await fs.promises.mkdtemp(path.join(dir, stageNameStart(prefix)));
  live.add(stage);
  await guard(stage);
  return stage;
}

export async function removeStage(stage: string): Promise<void> {
  try {
    // After a damaged archive, tar may still be closing files it had begun: retry briefly.
    await fs.promises.rm(stage, { recursive: true, force: true, maxRetries: 10, retryDelay: 100 });
  } finally {
    live.delete(stage);
    // The guard finds the folder gone and ends.
    guards.get(stage)?.stdin.end();
    guards.delete(stage);
  }
}

const RANDOM_PART = /^[A-Za-z0-9]{6}$/;

function isLeftOver(dir: string, name: string, prefix: string, modifiedAt: Date, options: SweepOptions): boolean {
  const rest = name.slice(prefix.length);
  const ours = /^(\d+)-(.+)-([A-Za-z0-9]{6})$/.exec(rest);
  if (!ours) return Boolean(options.earlierVersions) && RANDOM_PART.test(rest);
  const [, pid, host] = ours;
  if (host !== hostTag()) return (options.now ?? Date.now()) - modifiedAt.getTime() > STALE_ELSEWHERE_MS;
  if (Number(pid) === process.pid) return !live.has(path.join(dir, name));
  return !processIsAlive(Number(pid));
}

type SweepOptions = { earlierVersions?: boolean; now?: number };

/**
 * Removes from `dir` the stage folders named with `prefix` that no running backup or restore
 * owns (and, with `earlierVersions`, those an earlier version named). Returns their names. A
 * folder that cannot be removed is left for the next time.
 */
export async function removeLeftoverStages(dir: string, prefix: string, options: SweepOptions = {}): Promise<string[]> {
  let entries: fs.Dirent[];
  try {
    entries = await fs.promises.readdir(dir, { withFileTypes: true });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return [];
    throw error;
  }
  const removed: string[] = [];
  for (const entry of entries) {
    // A link is not a folder we made, wherever it points.
    if (!entry.name.startsWith(prefix) || !entry.isDirectory()) continue;
    const full = path.join(dir, entry.name);
    const stat = await fs.promises.lstat(full).catch(() => null);
    if (!stat?.isDirectory() || !isLeftOver(dir, entry.name, prefix, stat.mtime, options)) continue;
    try {
      await fs.promises.rm(full, { recursive: true, force: true });
      removed.push(entry.name);
    } catch {
      // Not ours to remove after all (another user's), or busy: the next sweep tries again.
    }
  }
  return removed;
}
