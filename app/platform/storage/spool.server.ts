import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import type { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { config } from "../config.server";

/**
 * Uploads as they arrive, written to DATA_DIR/uploads before they are judged and stored: a file
 * is never held whole in memory, and its length is known before it goes to storage (an S3 PUT
 * needs it). Each is removed once its request is answered; the orphan sweep removes what a
 * killed process left (`removeStaleSpooled`).
 */
const SPOOL = "uploads";
const SUFFIX = ".upload";

function spoolDir(): string {
  return path.join(config().dataDir, SPOOL);
}

/** An upload on disk: where it is, its length, and how to remove it (safe to call twice). */
export type SpooledFile = { path: string; size: number; discard: () => Promise<void> };

/** Writes `stream` to a new spool file and resolves once it is all on disk; on any failure nothing is left. */
export async function spool(stream: Readable): Promise<SpooledFile> {
  await fs.promises.mkdir(spoolDir(), { recursive: true, mode: 0o700 });
  const file = path.join(spoolDir(), `${crypto.randomBytes(16).toString("hex")}${SUFFIX}`);
  const discard = () => fs.promises.rm(file, { force: true });
  const out = fs.createWriteStream(file, { flags: "wx", mode: 0o600 });
  try {
    await pipeline(stream, out);
  } catch (error) {
    await discard();
    throw error;
  }
  return { path: file, size: out.bytesWritten, discard };
}

/** Removes spool files older than `before` (a process killed mid-upload); names them. */
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
    if (!stat || stat.mtime >= before) continue;
    await fs.promises.rm(file, { force: true });
    removed.push(`${SPOOL}/${name}`);
  }
  return removed;
}
