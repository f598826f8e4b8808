/** What the command-line tools share: a clear message and exit code instead of a stack trace. */
import { BackupError } from "~/ops/backup/format.server";
import { config, ConfigError, type Config } from "~/platform/config.server";
import { ControlSocketError } from "~/ops/control/control-socket.server";
import { DataDirLockedError } from "~/platform/db/lock.server";

export function fail(message: string): never {
  console.error(message);
  process.exit(1);
}

/** The configuration, or the message naming the bad variable. */
export function cliConfig(): Config {
  try {
    return config();
  } catch (error) {
    if (error instanceof ConfigError || error instanceof ControlSocketError) fail(error.message);
    throw error;
  }
}

/** Problems the operator can fix are printed as they are; anything else with its stack, as a bug. */
export function failOn(error: unknown): never {
  if (error instanceof BackupError || error instanceof DataDirLockedError || error instanceof ConfigError || error instanceof ControlSocketError) fail(error.message);
  // The operating system's refusals (a missing folder, no permission, disk full) say enough.
  if (error instanceof Error && /^E[A-Z]+$/.test((error as NodeJS.ErrnoException).code ?? "")) fail(error.message);
  fail(error instanceof Error ? (error.stack ?? error.message) : String(error));
}
