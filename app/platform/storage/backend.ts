import type { Readable } from "node:stream";

/** A stored file as a listing shows it. */
export type StoredFile = { key: string; size: number; modifiedAt: Date };

/** An opened file: its length and its bytes. */
export type OpenedFile = { size: number; stream: Readable };

/**
 * What every place files are kept can do. Keys are already checked by the caller
 * (storage.server.ts) and look like research/<user id>/<random>.<ext>.
 */
export type StorageBackend = {
  readonly kind: "local" | "s3";
  /** Stores exactly `size` bytes under `key`; on any failure nothing is left under `key`. */
  put(key: string, body: Readable, size: number, contentType: string | undefined): Promise<void>;
  open(key: string): Promise<OpenedFile | null>;
  remove(key: string): Promise<void>;
  /** Every complete file with a valid key; files it did not write are left out. */
  list(): AsyncGenerator<StoredFile>;
  /** Removes what interrupted uploads left behind before `before`, and names it. */
  removeStalePartials(before: Date): Promise<string[]>;
  /** Throws a StorageError naming the setting to fix when the files cannot be reached. */
  check(): Promise<void>;
};

/** A storage problem an operator fixes with a setting; the message names it. */
export class StorageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "StorageError";
  }
}

/** Counts the bytes going through and fails the store if they are not the `size` announced. */
export async function* exactly(body: AsyncIterable<Uint8Array>, size: number): AsyncGenerator<Uint8Array> {
  let seen = 0;
  for await (const chunk of body) {
    seen += chunk.byteLength;
    if (seen > size) throw new Error(`upload longer than its announced ${size} bytes`);
    yield chunk;
  }
  if (seen !== size) throw new Error(`upload ended after ${seen} of ${size} bytes`);
}
