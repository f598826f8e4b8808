import fs from "node:fs";
import path from "node:path";
import { processIsAlive, processState } from "../processes.server";

/**
 * PGlite takes no lock of its own, and two processes writing one data directory
 * corrupt it. We hold a lock file naming our pid; a lock left by a process that
 * no longer runs (after kill -9 or a power cut) is taken over at once, which a
 * time-based lock (e.g. proper-lockfile's stale check) would refuse for seconds.
 *
 * Two servers may start on one directory at the same moment, so every step is atomic:
 * the lock file appears with the pid already in it (linked from a file written first,
 * never seen empty), and a dead holder's lock is removed only under a second, short-lived
 * guard file, so two starters cannot both remove it and both go on.
 *
 * Some filesystems have no hard links (some network shares and FUSE mounts, such as a
 * folder shared into a container from another system). There the lock is created exclusively
 * and its pid written after, so for a moment it is empty: an empty lock is left alone until it
 * has stayed the same empty file for a second, watched by this process, and only then taken as
 * abandoned.
 *
 * A holder killed a moment ago (a supervisor restarting at once after kill -9) may still be in
 * the process table: a zombie, whose parent has not yet read its exit status, holds nothing and
 * counts as gone; one the kernel is still tearing down is waited for, at most DYING_HOLDER_WAIT_MS.
 */
export class DataDirLockedError extends Error {
  constructor(dir: string, pid: number, how = "") {
    const still = how ? ` It ${how} after ${DYING_HOLDER_WAIT_MS / 1000} s.` : "";
    super(
      `The data directory ${dir} is in use by another process (pid ${pid}).${still} Stop it first, or set DATA_DIR to another directory.`,
    );
    this.name = "DataDirLockedError";
  }
}

/** How long a starter keeps trying while the lock changes hands under it. */
const ACQUIRE_MS = 5_000;

/**
 * How long a starter waits for a holder that is exiting (killed a moment ago: a supervisor
 * restarting at once after kill -9) before it is refused. Tearing down even a large process
 * takes well under a second; one stuck longer is stuck on something the operator must see.
 */
export const DYING_HOLDER_WAIT_MS = 10_000;

/**
 * How long an empty lock, or a guard, must stay unchanged on every look before it counts as
 * abandoned. Writing a pid takes microseconds, and a guard is held for as long.
 */
const PATIENCE_MS = 1_000;

export function acquireDataDirLock(dir: string): () => void {
  fs.mkdirSync(dir, { recursive: true });
  const lockPath = path.join(dir, "hopewell.lock");
  const guardPath = `${lockPath}.takeover`;
  const watch = new Watch();
  // The monotonic clock: a step of the wall clock must not make a fresh empty lock look old.
  for (let deadline = performance.now() + ACQUIRE_MS, dyingSince: number | undefined; performance.now() < deadline;) {
    if (createNamingThisProcess(lockPath)) return releaser(lockPath);
    const holder = readHolder(lockPath);
    // Released between our attempt and our look: try again.
    if (holder === undefined) continue;
    if (holder === EMPTY) {
      // Being written by a starter where there are no hard links, unless it stays so.
      if (watch.unchangedFor(lockPath) < PATIENCE_MS) {
        pause(5);
        continue;
      }
    } else {
      watch.forget(lockPath);
      if (holder !== process.pid && processIsAlive(holder)) {
        if (processState(holder) !== "exiting") throw new DataDirLockedError(dir, holder);
        dyingSince ??= performance.now();
        if (performance.now() - dyingSince > DYING_HOLDER_WAIT_MS)
          throw new DataDirLockedError(dir, holder, "is still exiting");
        deadline = Math.max(deadline, performance.now() + ACQUIRE_MS);
        pause(20);
        continue;
      }
    }
    takeOverAbandonedLock(lockPath, guardPath, holder, watch);
  }
  throw new Error(`Could not lock the data directory ${dir}: other processes kept taking and releasing it.`);
}

/** Removes a lock whose holder is dead (or that stayed empty), unless another starter is doing so or has done so already. */
function takeOverAbandonedLock(lockPath: string, guardPath: string, found: number | typeof EMPTY, watch: Watch): void {
  if (!createNamingThisProcess(guardPath)) {
    removeAbandonedGuard(guardPath, watch);
    return;
  }
  // Others remove a guard left unchanged for a second: a starter stopped that long inside its
  // own must find it still its own (the same file, naming this process) before each step.
  const guard = identityOf(guardPath);
  const guardStillOurs = () => identityOf(guardPath) === guard && readHolder(guardPath) === process.pid;
  try {
    // Under the guard nobody else removes the lock, and nobody can create one while it is there.
    // An empty one must still be the very file watched: another starter may have removed that one
    // and be about to write its pid into its own.
    const now = readHolder(lockPath);
    const abandoned = now === found && (now !== EMPTY || watch.unchangedFor(lockPath) >= PATIENCE_MS);
    if (abandoned && guardStillOurs()) fs.rmSync(lockPath, { force: true });
  } finally {
    if (guardStillOurs()) fs.rmSync(guardPath, { force: true });
  }
}

/**
 * A guard is held for microseconds: one found unchanged for a second was left by a starter
 * that died holding it (or names a pid given since to another process, as a container's server
 * gets the same pid at every start). It is removed only if it is still that same file.
 */
function removeAbandonedGuard(guardPath: string, watch: Watch): void {
  const unchanged = watch.unchangedFor(guardPath);
  const watched = watch.identityOf(guardPath);
  // Gone already: the starter that held it is done.
  if (watched === undefined) return;
  if (unchanged < PATIENCE_MS) {
    pause(5);
    return;
  }
  if (identityOf(guardPath) === watched) fs.rmSync(guardPath, { force: true });
  watch.forget(guardPath);
}

function releaser(lockPath: string): () => void {
  let released = false;
  return () => {
    if (released) return;
    released = true;
    try {
      if (readHolder(lockPath) === process.pid) fs.rmSync(lockPath, { force: true });
    } catch {
      // Unreadable now (its directory gone or its rights changed): the next start takes it over.
    }
  };
}

/** Creates `file` holding this process's pid, atomically where hard links allow; false when it exists already. */
function createNamingThisProcess(file: string): boolean {
  const written = `${file}.${process.pid}`;
  fs.writeFileSync(written, String(process.pid));
  try {
    fs.linkSync(written, file);
    return true;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "EEXIST") return false;
    if (code !== undefined && NO_HARD_LINKS.has(code)) return createExclusively(file);
    throw error;
  } finally {
    fs.rmSync(written, { force: true });
  }
}

/** What link() answers on a filesystem that has no hard links. */
const NO_HARD_LINKS = new Set(["EPERM", "ENOTSUP", "EOPNOTSUPP", "ENOSYS", "EXDEV"]);

/** Creates `file` only if it does not exist, then writes the pid in it: empty for a moment (see PATIENCE_MS). */
function createExclusively(file: string): boolean {
  try {
    fs.writeFileSync(file, String(process.pid), { flag: "wx" });
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "EEXIST") return false;
    throw error;
  }
}

/** A lock file with nothing in it yet. */
const EMPTY = "empty";

/**
 * Who a lock file names: a pid, 0 for text that names no process (as an earlier version could
 * leave), EMPTY when it holds nothing yet; undefined when it is gone.
 */
type Holder = number | typeof EMPTY | undefined;

function readHolder(file: string): Holder {
  let text: string;
  try {
    text = fs.readFileSync(file, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw error;
  }
  if (text === "") return EMPTY;
  const pid = Number(text.trim());
  return Number.isInteger(pid) && pid > 0 ? pid : 0;
}

/** A file as found at one look: its inode, change time and size (a file made again may reuse an inode). */
function identityOf(file: string): string | undefined {
  try {
    const stat = fs.statSync(file);
    return `${stat.ino}:${stat.ctimeMs}:${stat.size}`;
  } catch {
    return undefined;
  }
}

/**
 * Files as this process has found them look after look: how long each has stayed the same file,
 * unchanged. Watched rather than judged by time stamps, which a share's clock may skew. Where
 * change times are coarse and inodes are reused at once (FAT), a file made again can pass for
 * the one watched; such filesystems are not ones to keep a database on.
 */
class Watch {
  private firstSeen = new Map<string, { identity: string; at: number }>();

  /** Milliseconds since this file was first found as it is now; 0 at the first look, or when it changed or went. */
  unchangedFor(file: string): number {
    const identity = identityOf(file);
    const seen = this.firstSeen.get(file);
    if (identity === undefined) {
      this.firstSeen.delete(file);
      return 0;
    }
    if (!seen || seen.identity !== identity) {
      this.firstSeen.set(file, { identity, at: performance.now() });
      return 0;
    }
    return performance.now() - seen.at;
  }

  /** The identity the file had when it was last watched. */
  identityOf(file: string): string | undefined {
    return this.firstSeen.get(file)?.identity;
  }

  /** Found changed in a way the identity may not show (naming a process): watching starts again. */
  forget(file: string): void {
    this.firstSeen.delete(file);
  }
}

function pause(milliseconds: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, milliseconds);
}
