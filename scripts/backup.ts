/**
 * Writes a backup archive (database and uploaded files, with a manifest) while the site runs:
 *
 *   npm run backup                      into BACKUP_DIR (or ./backups) under a dated name
 *   npm run backup -- --out FILE|DIR    a file name ending in .tar.gz, or a folder
 *
 * On the embedded database a running server is asked to write it over its control socket.
 */
import "./settings";
import fs from "node:fs";
import path from "node:path";
import { parseArgs } from "node:util";
import { createBackup, type BackupResult } from "~/ops/backup/dump.server";
import { backupFileName } from "~/ops/backup/format.server";
import { askRunningServer } from "~/ops/control/control-socket.server";
import { closeDatabase, openDatabase } from "~/platform/db/client.server";
import { DataDirLockedError } from "~/platform/db/lock.server";
import { countOf } from "~/lib/plural";
import { cliConfig, fail, failOn } from "./cli";

const USAGE = "Usage: npm run backup [-- --out FILE.tar.gz|FOLDER]";

async function main() {
  let out: string | undefined;
  try {
    const { values } = parseArgs({ options: { out: { type: "string" }, help: { type: "boolean" } }, strict: true });
    if (values.help) {
      console.log(USAGE);
      return;
    }
    out = values.out;
  } catch (error) {
    fail(`${(error as Error).message}\n${USAGE}`);
  }
  const cfg = cliConfig();
  const given = path.resolve(out ?? cfg.backup.dir ?? "backups");
  const target = given.endsWith(".tar.gz") ? given : path.join(given, backupFileName());

  // Opening a DATA_DIR that has no database would make an empty one and back that up.
  if (!cfg.databaseUrl && !fs.existsSync(path.join(cfg.dataDir, "pgdata")))
    fail(`There is no database in DATA_DIR (${cfg.dataDir}): nothing to back up.`);

  let result: Pick<BackupResult, "file" | "ms" | "manifest" | "leftovers">;
  try {
    // As it is: a backup taken after a `git pull`, before the restart, must not migrate the live database.
    const handle = await openDatabase({ databaseUrl: cfg.databaseUrl, dataDir: cfg.dataDir, migrate: false });
    try {
      result = await createBackup(handle.db, handle.kind, target);
    } finally {
      await handle.close();
    }
  } catch (error) {
    if (!(error instanceof DataDirLockedError)) throw error;
    result = await askRunningServer(cfg.dataDir, "/backup", { target });
  }
  if (result.leftovers.length > 0) {
    console.log(
      `Removed ${countOf(result.leftovers.length, "unfinished backup")} (a plain copy of the database) left by a process stopped during one: ${result.leftovers.join(", ")}.`,
    );
  }
  const rows = result.manifest.tables.reduce((sum, table) => sum + table.rows, 0);
  console.log(
    `Backup written to ${result.file}: schema ${result.manifest.schemaVersion}, ${result.manifest.tables.length} tables, ${rows} rows, ${result.manifest.files.length} files, in ${(result.ms / 1000).toFixed(1)} s.`,
  );
}

main()
  .then(() => closeDatabase())
  .catch(failOn);
