import fs from "node:fs";
import path from "node:path";
import type { DatabaseHandle } from "../db/client.server";
import { logger } from "../logger.server";
import { createBackup } from "./dump.server";
import { BACKUP_FILE_PATTERN, backupFileName } from "./format.server";

/** Deletes all but the newest `keep` backups in `dir` (only files named like ours). */
export async function pruneBackups(dir: string, keep: number): Promise<string[]> {
  const ours = (await fs.promises.readdir(dir)).filter((name) => BACKUP_FILE_PATTERN.test(name)).sort();
  const old = ours.slice(0, Math.max(0, ours.length - keep));
  for (const name of old) await fs.promises.rm(path.join(dir, name), { force: true });
  return old;
}

/** Takes a backup every `everyMs` into `dir`, keeping the newest `keep`; a failure is logged and the site carries on. */
export function scheduleBackups(handle: DatabaseHandle, options: { dir: string; everyMs: number; keep: number }): { stop: () => Promise<void> } {
  let running: Promise<void> | undefined;
  const take = async () => {
    try {
      const result = await createBackup(handle.db, handle.kind, path.join(options.dir, backupFileName()));
      const pruned = await pruneBackups(options.dir, options.keep);
      logger.info({ file: result.file, ms: result.ms, tables: result.manifest.tables.length, files: result.manifest.files.length, pruned: pruned.length }, "scheduled backup written");
    } catch (error) {
      logger.error({ reason: error instanceof Error ? error.message : String(error), dir: options.dir }, "scheduled backup failed");
    }
  };
  const timer = setInterval(() => {
    if (!running) running = take().finally(() => (running = undefined));
  }, options.everyMs);
  timer.unref();
  return {
    stop: async () => {
      clearInterval(timer);
      await running;
    },
  };
}
