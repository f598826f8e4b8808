import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { config } from "../config.server";

/**
 * Files kept under DATA_DIR, never under the public folder: they are served only
 * through routes that check the viewer. Keys look like research/<user id>/<random><ext>.
 */
const KEY = /^research\/[A-Za-z0-9_-]{1,64}\/[A-Za-z0-9_-]{8,64}\.(jpg|jpeg|png|pdf)$/;

function root(): string {
  return path.join(config().dataDir, "files");
}

export function pathForKey(key: string): string {
  if (!KEY.test(key)) throw new Error("Invalid storage key");
  return path.join(root(), key);
}

export function researchKey(userId: string, extension: string): string {
  return `research/${userId}/${crypto.randomBytes(16).toString("hex")}.${extension}`;
}

/** Writes the bytes to a temporary file first, so a half-written file never has a real key. */
export async function saveFile(key: string, bytes: Uint8Array): Promise<void> {
  const target = pathForKey(key);
  await fs.promises.mkdir(path.dirname(target), { recursive: true });
  const temporary = `${target}.${process.pid}.${crypto.randomBytes(4).toString("hex")}.partial`;
  try {
    await fs.promises.writeFile(temporary, bytes, { flag: "wx" });
    await fs.promises.rename(temporary, target);
  } catch (error) {
    await fs.promises.rm(temporary, { force: true });
    throw error;
  }
}

export async function removeFile(key: string): Promise<void> {
  await fs.promises.rm(pathForKey(key), { force: true });
}

export async function fileSize(key: string): Promise<number | null> {
  try {
    return (await fs.promises.stat(pathForKey(key))).size;
  } catch {
    return null;
  }
}

export function readFile(key: string): fs.ReadStream {
  return fs.createReadStream(pathForKey(key));
}
