import fs from "node:fs";
import path from "node:path";
import type { DatabaseHandle } from "~/platform/db/client.server";
import type { TimerJob } from "~/platform/jobs.server";
import { logger } from "~/platform/logger.server";
import { createBackup } from "./dump.server";
import { BACKUP_FILE_PATTERN, backupFileName } from "./format.server";
import { BACKUP_STAGE_PREFIX, removeLeftoverStages } from "./stages.server";

/** Deletes all but the newest `keep` backups in `dir` (only files named like ours). */
export async function pruneBackups(dir: string, keep: number): Promise<string[]> {
  const ours = (await fs.promises.readdir(dir)).filter((name) => BACKUP_FILE_PATTERN.test(name)).sort();
  const old = ours.slice(0, Math.max(0, ours.length - keep));
  for (const name of old) await fs.promises.rm(path.join(dir, name), { force: true });
  return old;
}

function logLeftovers(dir: string, leftovers: string[]): void {
  if (leftovers.length > 0)
    logger.warn({ dir, removed: leftovers }, "removed the unfinished backups of processes stopped during one");
}

/**
 * Takes a backup every `everyMs` into `dir`, keeping the newest `keep`; a failure is logged and
 * the site carries on. At once, it removes what backups killed before they ended left in `dir`
 * (a plain copy of the database): the site's start is often the restart after that kill.
 */
export function scheduledBackupsJob(
  handle: DatabaseHandle,
  options: { dir: string; everyMs: number; keep: number },
): TimerJob {
  return {
    name: "scheduled backup",
    firstAfterMs: options.everyMs,
    everyMs: options.everyMs,
    atStart: () =>
      removeLeftoverStages(options.dir, BACKUP_STAGE_PREFIX, { earlierVersions: true }).then(
        (leftovers) => logLeftovers(options.dir, leftovers),
        (error: unknown) =>
          logger.error(
            { reason: error instanceof Error ? error.message : String(error), dir: options.dir },
            "removing unfinished backups failed",
          ),
      ),
    run: async () => {
      try {
        const result = await createBackup(handle.db, handle.kind, path.join(options.dir, backupFileName()));
        logLeftovers(options.dir, result.leftovers);
        const pruned = await pruneBackups(options.dir, options.keep);
        logger.info(
          {
            file: result.file,
            ms: result.ms,
            tables: result.manifest.tables.length,
            files: result.manifest.files.length,
            pruned: pruned.length,
          },
          "scheduled backup written",
        );
      } catch (error) {
        logger.error(
          { reason: error instanceof Error ? error.message : String(error), dir: options.dir },
          "scheduled backup failed",
        );
      }
    },
  };
}
