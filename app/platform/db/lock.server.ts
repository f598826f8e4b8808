import fs from "node:fs";
import path from "node:path";

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
 * Docker Desktop folder shared from the host). There the lock is created exclusively and
 * its pid written after, so for a moment it is empty: an empty lock is left alone until it
 * has stayed empty for a second, watched by this process (not by its time stamp, which a
 * share's clock may skew), and only then taken as abandoned.
 */
export class DataDirLockedError extends Error {
  constructor(dir: string, pid: number) {
    super(`The data directory ${dir} is in use by another process (pid ${pid}). Stop it first, or set DATA_DIR to another directory.`);
    this.name = "DataDirLockedError";
  }
}

/** Whether a process with this pid runs on this machine (whoever owns it). */
export function processIsAlive(pid: number): boolean {
  // 0 and negative numbers name process groups, and signalling one would reach this process's own.
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: the process exists but belongs to someone else.
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

/** How long a starter keeps trying while the lock changes hands under it. */
const ACQUIRE_MS = 5_000;

/** How long a lock or its guard may stay empty, watched, before it counts as abandoned. */
const EMPTY_PATIENCE_MS = 1_000;

export function acquireDataDirLock(dir: string): () => void {
  fs.mkdirSync(dir, { recursive: true });
  const lockPath = path.join(dir, "hopewell.lock");
  const guardPath = `${lockPath}.takeover`;
  const empties = new EmptyFiles();
  for (const deadline = Date.now() + ACQUIRE_MS; Date.now() < deadline; ) {
    if (createNamingThisProcess(lockPath)) return releaser(lockPath);
    const holder = readHolder(lockPath);
    // Released between our attempt and our look: try again.
    if (holder === undefined) continue;
    if (holder === EMPTY && !empties.abandoned(lockPath)) {
      pause(5);
      continue;
    }
    if (holder !== EMPTY) empties.forget(lockPath);
    if (holder !== EMPTY && holder !== process.pid && processIsAlive(holder)) throw new DataDirLockedError(dir, holder);
    takeOverDeadHoldersLock(lockPath, guardPath, holder, empties);
  }
  throw new Error(`Could not lock the data directory ${dir}: other processes kept taking and releasing it.`);
}

/** Removes the lock of a holder found dead (or abandoned empty), unless another starter is doing so or has done so already. */
function takeOverDeadHoldersLock(lockPath: string, guardPath: string, deadHolder: Holder, empties: EmptyFiles): void {
  if (!createNamingThisProcess(guardPath)) {
    const guardHolder = readHolder(guardPath);
    // A starter killed inside the guard's few microseconds left it behind.
    const abandoned = guardHolder === EMPTY ? empties.abandoned(guardPath) : guardHolder !== undefined && !processIsAlive(guardHolder);
    if (abandoned) fs.rmSync(guardPath, { force: true });
    else pause(5);
    return;
  }
  try {
    // Under the guard nobody else removes the lock, and nobody can create one while it is there.
    if (readHolder(lockPath) === deadHolder) fs.rmSync(lockPath, { force: true });
  } finally {
    fs.rmSync(guardPath, { force: true });
  }
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

/** Creates `file` only if it does not exist, then writes the pid in it: empty for a moment (see EmptyFiles). */
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

/**
 * Empty lock files as this process has watched them: one is abandoned once the same file (its
 * inode and change time: a file made again may reuse the inode) has been found empty on every
 * look for EMPTY_PATIENCE_MS since this process first found it so.
 */
class EmptyFiles {
  private firstSeen = new Map<string, { file: string; at: number }>();

  abandoned(file: string): boolean {
    let identity: string;
    try {
      const stat = fs.statSync(file);
      identity = `${stat.ino}:${stat.ctimeMs}`;
    } catch {
      return false;
    }
    const seen = this.firstSeen.get(file);
    if (!seen || seen.file !== identity) {
      this.firstSeen.set(file, { file: identity, at: Date.now() });
      return false;
    }
    return Date.now() - seen.at >= EMPTY_PATIENCE_MS;
  }

  /** The file was found naming a process: any watch of it as empty starts again. */
  forget(file: string): void {
    this.firstSeen.delete(file);
  }
}

function pause(milliseconds: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, milliseconds);
}
