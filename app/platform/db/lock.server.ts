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

/** How often a starter looks again while the lock changes hands under it. */
const ATTEMPTS = 200;

export function acquireDataDirLock(dir: string): () => void {
  fs.mkdirSync(dir, { recursive: true });
  const lockPath = path.join(dir, "hopewell.lock");
  const guardPath = `${lockPath}.takeover`;
  for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
    if (createNamingThisProcess(lockPath)) return releaser(lockPath);
    const holder = readPid(lockPath);
    // Released between our attempt and our look: try again.
    if (holder === undefined) continue;
    if (holder !== process.pid && processIsAlive(holder)) throw new DataDirLockedError(dir, holder);
    takeOverDeadHoldersLock(lockPath, guardPath, holder);
  }
  throw new Error(`Could not lock the data directory ${dir}: other processes kept taking and releasing it.`);
}

/** Removes the lock of a holder found dead, unless another starter is doing so or has done so already. */
function takeOverDeadHoldersLock(lockPath: string, guardPath: string, deadHolder: number): void {
  if (!createNamingThisProcess(guardPath)) {
    const guardHolder = readPid(guardPath);
    // A starter killed inside the guard's few microseconds left it behind.
    if (guardHolder !== undefined && !processIsAlive(guardHolder)) fs.rmSync(guardPath, { force: true });
    else pause(5);
    return;
  }
  try {
    // Under the guard nobody else removes the lock, and nobody can create one while it is there.
    if (readPid(lockPath) === deadHolder) fs.rmSync(lockPath, { force: true });
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
      if (readPid(lockPath) === process.pid) fs.rmSync(lockPath, { force: true });
    } catch {
      // Unreadable now (its directory gone or its rights changed): the next start takes it over.
    }
  };
}

/** Creates `file` holding this process's pid, atomically; false when it exists already. */
function createNamingThisProcess(file: string): boolean {
  const written = `${file}.${process.pid}`;
  fs.writeFileSync(written, String(process.pid));
  try {
    fs.linkSync(written, file);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "EEXIST") return false;
    throw error;
  } finally {
    fs.rmSync(written, { force: true });
  }
}

/** The pid a lock file names (0 for one that names none, as an earlier version could leave); undefined when it is gone. */
function readPid(file: string): number | undefined {
  let text: string;
  try {
    text = fs.readFileSync(file, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw error;
  }
  const pid = Number(text.trim());
  return Number.isInteger(pid) && pid > 0 ? pid : 0;
}

function pause(milliseconds: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, milliseconds);
}
