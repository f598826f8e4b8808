/**
 * Administration from the command line, e.g. to make a fresh install's first manager:
 *
 *   npm run admin -- create-user --email E --password P --first F --last L --role manager
 *   npm run admin -- set-role --email E --role player
 *
 * While the site runs on the embedded database (which only one process may open), the
 * command is handed to the running server over its control socket.
 */
import "./settings";
import { askRunningServer } from "~/ops/control/control-socket.server";
import { runAdminCommand, type AdminOutcome } from "~/ops/control/admin.server";
import { closeDatabase, openDatabase, setDatabase } from "~/platform/db/client.server";
import { DataDirLockedError } from "~/platform/db/lock.server";
import { cliConfig, fail } from "./cli";

async function main() {
  const argv = process.argv.slice(2);
  const cfg = cliConfig();
  let outcome: AdminOutcome;
  try {
    setDatabase(await openDatabase({ databaseUrl: cfg.databaseUrl, dataDir: cfg.dataDir }));
    try {
      outcome = await runAdminCommand(argv);
    } finally {
      await closeDatabase();
    }
  } catch (error) {
    if (!(error instanceof DataDirLockedError)) throw error;
    outcome = await askRunningServer<AdminOutcome>(cfg.dataDir, "/admin", { argv });
  }
  for (const line of outcome.out) console.log(line);
  for (const line of outcome.err) console.error(line);
  process.exit(outcome.code);
}

main().catch((error) => fail(error instanceof Error ? error.message : String(error)));
