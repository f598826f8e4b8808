import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import type { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { config } from "../config.server";
import { hostTag, processIsAlive } from "../processes.server";

/**
 * Uploads as they arrive, written to DATA_DIR/uploads before they are judged and stored: a file
 * is never held whole in memory, and its length is known before it goes to storage (an S3 PUT
 * needs it). Each is removed once its request is answered. A process killed mid-upload cannot, so
 * each file is named for its process and machine (`<pid>-<host>-<random>.upload`): the orphan
 * sweep, which runs as the server starts, removes at once those of processes on this machine that
 * no longer run, and the others (another machine's, an earlier version's) once they are older than
 * its grace (`removeStaleSpooled`).
 */
const SPOOL = "uploads";
const SUFFIX = ".upload";
const OURS = /^(\d+)-(.+)-[0-9a-f]{32}\.upload$/;

/** The spool files this process is writing or holding now. */
const live = new Set<string>();

function spoolDir(): string {
  return path.join(config().dataDir, SPOOL);
}

/** An upload on disk: where it is, its length, and how to remove it (safe to call twice). */
export type SpooledFile = { path: string; size: number; discard: () => Promise<void> };

/** Writes `stream` to a new spool file and resolves once it is all on disk; on any failure nothing is left. */
export async function spool(stream: Readable): Promise<SpooledFile> {
  await fs.promises.mkdir(spoolDir(), { recursive: true, mode: 0o700 });
  const name = `${process.pid}-${hostTag()}-${crypto.randomBytes(16).toString("hex")}${SUFFIX}`;
  const file = path.join(spoolDir(), name);
  live.add(name);
  const discard = async () => {
    await fs.promises.rm(file, { force: true });
    live.delete(name);
  };
  const out = fs.createWriteStream(file, { flags: "wx", mode: 0o600 });
  try {
    await pipeline(stream, out);
  } catch (error) {
    await discard();
    throw error;
  }
  return { path: file, size: out.bytesWritten, discard };
}

/** Whether a spool file was left by a process that is gone (or, without a name that says, is older than `before`). */
function leftOver(name: string, modifiedAt: Date, before: Date): boolean {
  const ours = OURS.exec(name);
  if (!ours || ours[2] !== hostTag()) return modifiedAt < before;
  const pid = Number(ours[1]);
  // The same pid as a process killed before (a container's server has the same pid at every start).
  if (pid === process.pid) return !live.has(name);
  return !processIsAlive(pid);
}

/** Removes spool files a process killed mid-upload left (see above); names them. */
export async function removeStaleSpooled(before: Date): Promise<string[]> {
  let names: string[];
  try {
    names = await fs.promises.readdir(spoolDir());
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return [];
    throw error;
  }
  const removed: string[] = [];
  for (const name of names.filter((name) => name.endsWith(SUFFIX))) {
    const file = path.join(spoolDir(), name);
    const stat = await fs.promises.stat(file).catch(() => null);
    if (!stat || !leftOver(name, stat.mtime, before)) continue;
    await fs.promises.rm(file, { force: true });
    removed.push(`${SPOOL}/${name}`);
  }
  return removed;
}
