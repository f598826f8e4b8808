import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { exactly, type StorageBackend, type StoredFile } from "./backend";

const PARTIAL = ".partial";

/** Walks the files under `dir`, giving each one's path relative to `root`. */
async function* walk(root: string, dir = root): AsyncGenerator<{ relative: string; full: string }> {
  let entries: fs.Dirent[];
  try {
    entries = await fs.promises.readdir(dir, { withFileTypes: true });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return;
    throw error;
  }
  for (const entry of entries) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) yield* walk(root, full);
    else if (entry.isFile()) yield { relative: path.relative(root, full).split(path.sep).join("/"), full };
  }
}

/**
 * Files in a folder (DATA_DIR/files). A file is written under a temporary `.partial`
 * name and renamed when complete, so a half-written file never has a real key.
 */
export function localBackend(root: () => string, isKey: (key: string) => boolean): StorageBackend {
  const full = (key: string) => path.join(root(), key);
  return {
    kind: "local",
    async put(key, body, size) {
      const target = full(key);
      await fs.promises.mkdir(path.dirname(target), { recursive: true });
      const temporary = `${target}.${process.pid}.${crypto.randomBytes(4).toString("hex")}${PARTIAL}`;
      // The file is created before any byte flows: a write stream opening it lazily could
      // create it after a failed upload's clean-up had run, and leave it behind.
      const file = await fs.promises.open(temporary, "wx");
      try {
        await pipeline(Readable.from(exactly(body, size)), file.createWriteStream());
        await fs.promises.rename(temporary, target);
      } catch (error) {
        body.destroy();
        await file.close().catch(() => undefined);
        await fs.promises.rm(temporary, { force: true });
        throw error;
      }
    },
    async open(key) {
      try {
        const handle = await fs.promises.open(full(key), "r");
        const { size } = await handle.stat();
        return { size, stream: handle.createReadStream() };
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === "ENOENT") return null;
        throw error;
      }
    },
    async remove(key) {
      await fs.promises.rm(full(key), { force: true });
    },
    async *list(): AsyncGenerator<StoredFile> {
      for await (const file of walk(root())) {
        if (!isKey(file.relative)) continue;
        try {
          const stat = await fs.promises.stat(file.full);
          yield { key: file.relative, size: stat.size, modifiedAt: stat.mtime };
        } catch {
          // Removed while listing.
        }
      }
    },
    async removeStalePartials(before) {
      const removed: string[] = [];
      for await (const file of walk(root())) {
        if (!file.relative.endsWith(PARTIAL)) continue;
        const stat = await fs.promises.stat(file.full).catch(() => null);
        if (!stat || stat.mtime >= before) continue;
        await fs.promises.rm(file.full, { force: true });
        removed.push(file.relative);
      }
      return removed;
    },
    async check() {},
  };
}
