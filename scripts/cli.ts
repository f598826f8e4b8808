/** What the command-line tools share: a clear message and exit code instead of a stack trace. */
import { BackupError } from "~/ops/backup/format.server";
import { config, ConfigError, type Config } from "~/platform/config.server";
import { ControlSocketError } from "~/ops/control/control-socket.server";
import { DataDirLockedError } from "~/platform/db/lock.server";
import { DatabaseSettingError } from "~/platform/db/connect-errors.server";
import { databaseLabel, embeddedDatabaseBeside } from "~/platform/db/where.server";
import { settingSource } from "./settings";

export function fail(message: string): never {
  console.error(message);
  process.exit(1);
}

/**
 * The configuration (read as the server reads it: ./settings.ts), or the message naming the bad
 * variable. A command that uses the database first says which database and data directory it
 * works on, and where those settings came from, so one run with other settings than the site's
 * shows it.
 */
export function cliConfig({ database = true }: { database?: boolean } = {}): Config {
  let cfg: Config;
  try {
    cfg = config();
  } catch (error) {
    if (error instanceof ConfigError || error instanceof ControlSocketError) fail(error.message);
    throw error;
  }
  if (!database) return cfg;
  const from = cfg.databaseUrl
    ? `DATABASE_URL ${settingSource("DATABASE_URL")}`
    : `DATABASE_URL unset, DATA_DIR ${settingSource("DATA_DIR")}`;
  console.log(`Database: ${databaseLabel(cfg.databaseUrl, cfg.dataDir)} (${from})`);
  console.log(`Data directory: ${cfg.dataDir} (DATA_DIR ${settingSource("DATA_DIR")})`);
  const beside = embeddedDatabaseBeside(cfg.databaseUrl, cfg.dataDir);
  if (beside) console.log(`Warning: ${beside}`);
  return cfg;
}

/** Problems the operator can fix are printed as they are; anything else with its stack, as a bug. */
export function failOn(error: unknown): never {
  if (
    error instanceof BackupError ||
    error instanceof DataDirLockedError ||
    error instanceof DatabaseSettingError ||
    error instanceof ConfigError ||
    error instanceof ControlSocketError
  )
    fail(error.message);
  // The operating system's refusals (a missing folder, no permission, disk full) say enough.
  if (error instanceof Error && /^E[A-Z]+$/.test((error as NodeJS.ErrnoException).code ?? "")) fail(error.message);
  fail(error instanceof Error ? (error.stack ?? error.message) : String(error));
}
