import crypto from "node:crypto";
import path from "node:path";
import { PassThrough, Readable } from "node:stream";
import type { ReadableStream as NodeReadableStream } from "node:stream/web";
import { config, type StorageConfig } from "../config.server";
import type { OpenedFile, StorageBackend, StoredFile } from "./backend";
import { localBackend } from "./local.server";
import { s3Backend } from "./s3.server";

export { StorageError, type OpenedFile, type StoredFile } from "./backend";

/**
 * Uploaded files, kept in a folder under DATA_DIR (the default) or in an S3-compatible
 * bucket (STORAGE=s3), never in the public folder: they are served only through routes
 * that check the viewer. Keys look like research/<user id>/<random><ext> on both, a
 * member's data export (member-data.server.ts) exports/<user id>/<random>.zip, a costume
 * photo (costumes.server.ts) costumes/<user id>/<random>.<jpg|png> with its <random>-thumb.jpg,
 * and a rulebook a manager uploaded (club-facts/pages/rulebook-page.server.ts) rulebook/<random>.pdf.
 */
const KEY =
  /^(research\/[A-Za-z0-9_-]{1,64}\/[A-Za-z0-9_-]{8,64}\.(jpg|jpeg|png|pdf)|exports\/[A-Za-z0-9_-]{1,64}\/[A-Za-z0-9_-]{8,64}\.zip|costumes\/[A-Za-z0-9_-]{1,64}\/[A-Za-z0-9_-]{8,64}\.(jpg|png)|rulebook\/[A-Za-z0-9_-]{8,64}\.pdf)$/;

const isKey = (key: string) => KEY.test(key);

function checked(key: string): string {
  if (!isKey(key)) throw new Error("Invalid storage key");
  return key;
}

function root(): string {
  return path.join(config().dataDir, "files");
}

let current: { settings: StorageConfig; backend: StorageBackend } | undefined;

/** The backend the configuration names (made again when tests change the configuration). */
function backend(): StorageBackend {
  const settings = config().storage;
  if (current?.settings !== settings) {
    current = { settings, backend: settings.kind === "s3" ? s3Backend(settings, isKey) : localBackend(root, isKey) };
  }
  return current.backend;
}

/** "local" or "s3": where uploaded files are kept. */
export function storageKind(): "local" | "s3" {
  return backend().kind;
}

/** The file's path in the local folder (local storage only). */
export function pathForKey(key: string): string {
  return path.join(root(), checked(key));
}

export function exportKey(userId: string): string {
  return `exports/${userId}/${crypto.randomBytes(16).toString("hex")}.zip`;
}

/** A costume photo's key and its thumbnail's, side by side. */
export function costumeKeys(userId: string, extension: "jpg" | "png"): { fileKey: string; thumbKey: string } {
  const base = `costumes/${userId}/${crypto.randomBytes(16).toString("hex")}`;
  return { fileKey: `${base}.${extension}`, thumbKey: `${base}-thumb.jpg` };
}

/** An uploaded rulebook's key: every upload a file of its own, so each version keeps the one it names. */
export function rulebookKey(): string {
  return `rulebook/${crypto.randomBytes(16).toString("hex")}.pdf`;
}

export function researchKey(userId: string, extension: string): string {
  return `research/${userId}/${crypto.randomBytes(16).toString("hex")}.${extension}`;
}

/**
 * Stores a file under `key`, streamed: bytes, a Blob (an uploaded file), or a stream of
 * `options.size` bytes. On any failure nothing is left under `key`.
 */
export async function saveFile(
  key: string,
  body: Uint8Array | Blob | Readable,
  options: { size?: number; contentType?: string } = {},
): Promise<void> {
  checked(key);
  let stream: Readable;
  let size: number;
  if (body instanceof Readable) {
    if (options.size === undefined) throw new Error("saveFile needs the size of a stream");
    [stream, size] = [body, options.size];
  } else if (body instanceof Blob) {
    [stream, size] = [Readable.fromWeb(body.stream() as NodeReadableStream<Uint8Array>), body.size];
  } else {
    [stream, size] = [Readable.from([body]), body.byteLength];
  }
  await backend().put(key, stream, size, options.contentType);
}

export async function removeFile(key: string): Promise<void> {
  await backend().remove(checked(key));
}

/** The file's length and bytes, or null when there is no such file. */
export async function openFile(key: string): Promise<OpenedFile | null> {
  return backend().open(checked(key));
}

export async function fileSize(key: string): Promise<number | null> {
  const opened = await openFile(key);
  opened?.stream.destroy();
  return opened?.size ?? null;
}

/** The file's bytes as a stream (which fails if there is no such file). */
export function readFile(key: string): Readable {
  const out = new PassThrough();
  openFile(key).then(
    (opened) => {
      if (!opened) out.destroy(Object.assign(new Error(`No stored file ${key}`), { code: "ENOENT" }));
      else {
        opened.stream.on("error", (error) => out.destroy(error)).pipe(out);
        // A reader that stops early must not leave the file (or the S3 connection) open.
        out.on("close", () => opened.stream.destroy());
      }
    },
    (error: unknown) => out.destroy(error as Error),
  );
  return out;
}

/** Every stored file (complete ones only), with its size and when it was written. */
export function listFiles(): AsyncGenerator<StoredFile> {
  return backend().list();
}

/** The keys of every stored file, sorted (what a backup holds and a restore compares). */
export async function storedKeys(): Promise<string[]> {
  const keys: string[] = [];
  for await (const file of listFiles()) keys.push(file.key);
  return keys.sort();
}

/** Removes what interrupted uploads left before `before` (local temporary files); names them. */
export function removeStalePartials(before: Date): Promise<string[]> {
  return backend().removeStalePartials(before);
}

/** Checks at start-up that the files can be reached; throws a StorageError naming the setting. */
export function checkStorage(): Promise<void> {
  return backend().check();
}
